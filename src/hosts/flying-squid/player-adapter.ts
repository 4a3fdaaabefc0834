import type { PermissionService } from '../../runtime/permissions.js';
import type { Player, Players } from '../../runtime/plugin-api.js';
import { kickWithMessage, sendColouredMessage } from './chat-components.js';
import { clientLocaleOf } from './client-locale.js';
import type { FsPlayer, FsServer } from './flying-squid-types.js';
import { restrainPlayer } from './player-restraint.js';

/** The runtime's view of one flying-squid player. */
class FlyingSquidPlayer implements Player {
  readonly kind = 'player' as const;
  readonly uuid: string;
  readonly name: string;

  constructor(
    private readonly serv: FsServer,
    private readonly player: FsPlayer,
    private readonly permissions: PermissionService,
  ) {
    // username/uuid are only copied onto the player during login; the client has them from the start.
    this.uuid = player._client.uuid;
    this.name = player._client.username;
  }

  get locale(): string | undefined {
    return clientLocaleOf(this.player._client);
  }

  isOnline(): boolean {
    return !this.player.disconnected && this.serv.players.includes(this.player);
  }

  sendMessage(text: string): void {
    sendColouredMessage(this.serv, this.player, text);
  }

  kick(message: string): void {
    if (!this.player.disconnected) kickWithMessage(this.serv, this.player, message);
  }

  hasPermission(node: string): boolean {
    return this.permissions.playerHas({ name: this.name, uuid: this.uuid }, node);
  }

  restrain(restrained: boolean): void {
    if (!this.player.disconnected) restrainPlayer(this.player, restrained);
  }
}

/** Adapts flying-squid players to the runtime's Player, one adapter per player. */
export class PlayerDirectory implements Players {
  private readonly adapters = new WeakMap<FsPlayer, FlyingSquidPlayer>();

  constructor(
    private readonly serv: FsServer,
    private readonly permissions: PermissionService,
  ) {}

  adapt(player: FsPlayer): Player {
    let adapter = this.adapters.get(player);
    if (!adapter) {
      adapter = new FlyingSquidPlayer(this.serv, player, this.permissions);
      this.adapters.set(player, adapter);
    }
    return adapter;
  }

  online(): Player[] {
    return this.serv.players.filter((player) => !player.disconnected).map((player) => this.adapt(player));
  }

  byUuid(uuid: string): Player | undefined {
    const wanted = uuid.toLowerCase();
    const found = this.serv.players.find(
      (player) => !player.disconnected && player._client.uuid.toLowerCase() === wanted,
    );
    return found && this.adapt(found);
  }

  byName(name: string): Player | undefined {
    const wanted = name.toLowerCase();
    const found = this.serv.players.find(
      (player) => !player.disconnected && player._client.username.toLowerCase() === wanted,
    );
    return found && this.adapt(found);
  }

  /** The flying-squid player behind a name, for host commands. */
  rawByName(name: string): FsPlayer | undefined {
    const wanted = name.toLowerCase();
    return this.serv.players.find((player) => !player.disconnected && player._client.username.toLowerCase() === wanted);
  }
}
