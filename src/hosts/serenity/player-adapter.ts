import type { Player as SerenityPlayer } from '@serenityjs/core';
import { DisconnectReason } from '@serenityjs/protocol';
import type { PermissionService } from '../../runtime/permissions.js';
import type { Player, Players } from '../../runtime/plugin-api.js';
import { toSectionCodes } from './bedrock-text.js';
import { clientLanguageOf } from './client-language.js';

/** SerenityJS's XUID of a player, or undefined when it has none (an empty string). */
export function knownXuid(xuid: string): string | undefined {
  return xuid === '' ? undefined : xuid;
}

/** The runtime's view of one SerenityJS player: UUID (XUID kept alongside), `&` codes rendered. */
class BedrockPlayer implements Player {
  readonly kind = 'player' as const;
  readonly uuid: string;
  readonly name: string;
  readonly xuid: string | undefined;
  readonly locale: string | undefined;
  online = true;
  /** Held in place (see `Player.restrain`); read by the host's packet filter. */
  restrained = false;

  constructor(
    private readonly player: SerenityPlayer,
    private readonly permissions: PermissionService,
  ) {
    this.uuid = player.uuid;
    this.name = player.username;
    this.xuid = knownXuid(player.xuid);
    this.locale = clientLanguageOf(player.connection);
  }

  isOnline(): boolean {
    return this.online;
  }

  sendMessage(text: string): void {
    if (this.online) this.player.sendMessage(toSectionCodes(text));
  }

  kick(message: string): void {
    if (!this.online) return;
    this.online = false;
    this.player.disconnect(toSectionCodes(message), DisconnectReason.Kicked);
  }

  hasPermission(node: string): boolean {
    return this.permissions.playerHas({ name: this.name, uuid: this.uuid }, node);
  }

  restrain(restrained: boolean): void {
    this.restrained = restrained;
  }
}

/**
 * The players who joined (spawned), one adapter each. SerenityJS's own list also holds players
 * still in the pre-login check, so the host adds and removes players here itself.
 */
export class BedrockPlayerDirectory implements Players {
  private readonly joined = new Map<SerenityPlayer, BedrockPlayer>();

  constructor(private readonly permissions: PermissionService) {}

  /** Records a joined player; returns its adapter. */
  add(player: SerenityPlayer): Player {
    const adapter = new BedrockPlayer(player, this.permissions);
    this.joined.set(player, adapter);
    return adapter;
  }

  /** Forgets a player who left; returns its adapter when it had joined (once). */
  remove(player: SerenityPlayer): Player | undefined {
    const adapter = this.joined.get(player);
    if (!adapter) return undefined;
    this.joined.delete(player);
    adapter.online = false;
    return adapter;
  }

  get(player: SerenityPlayer): Player | undefined {
    return this.joined.get(player);
  }

  /** Whether a joined player is held in place. */
  isRestrained(player: SerenityPlayer): boolean {
    return this.joined.get(player)?.restrained === true;
  }

  online(): Player[] {
    return [...this.joined.values()];
  }

  byUuid(uuid: string): Player | undefined {
    const wanted = uuid.toLowerCase();
    return this.online().find((player) => player.uuid.toLowerCase() === wanted);
  }

  byName(name: string): Player | undefined {
    const wanted = name.toLowerCase();
    return this.online().find((player) => player.name.toLowerCase() === wanted);
  }
}
