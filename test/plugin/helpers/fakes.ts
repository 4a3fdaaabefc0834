import { ExtensionSupport } from '../../../src/api/extension-support.js';
import { RateLimitGate } from '../../../src/api/rate-limit-gate.js';
import type { Punishment } from '../../../src/contract/schemas.js';
import type { Player } from '../../../src/runtime/plugin-api.js';

export { recordingLogger } from '../../support/recording-logger.js';

export interface FakePlayer extends Player {
  readonly messages: string[];
  kickedWith: string | undefined;
  permissions: Set<string>;
}

export function fakePlayer(uuid: string, name: string): FakePlayer {
  const player: FakePlayer = {
    kind: 'player',
    uuid,
    name,
    messages: [],
    kickedWith: undefined,
    permissions: new Set(),
    sendMessage(text) {
      player.messages.push(text);
    },
    hasPermission: (node) => player.permissions.has(node),
    isOnline: () => player.kickedWith === undefined,
    kick(message) {
      player.kickedWith = message;
    },
  };
  return player;
}

/** Online players by UUID, as the runtime's `Players`. */
export function fakePlayers(...online: FakePlayer[]) {
  const byUuid = new Map(online.map((player) => [player.uuid.toLowerCase(), player]));
  return {
    online: () => [...byUuid.values()],
    byUuid: (uuid: string) => byUuid.get(uuid.toLowerCase()),
    byName: (name: string) => [...byUuid.values()].find((player) => player.name.toLowerCase() === name.toLowerCase()),
    add(player: FakePlayer) {
      byUuid.set(player.uuid.toLowerCase(), player);
    },
    remove(uuid: string) {
      byUuid.delete(uuid.toLowerCase());
    },
  };
}

export const ALICE = '11111111-1111-4111-8111-111111111111';
export const BOB = '22222222-2222-4222-8222-222222222222';

/** A punishment as the service sends it. */
export function servicePunishment(overrides: Partial<Punishment> = {}): Punishment {
  return {
    id: 'p-1',
    targetUuid: ALICE,
    targetName: 'Alice',
    issuerName: 'Mod',
    typeOrdinal: 2,
    reason: 'griefing',
    duration: -1,
    createdAt: '2026-01-01T00:00:00.000Z',
    status: 'active',
    started: null,
    ...overrides,
  };
}

/** A client's gate and extension record, real ones, for fakes of the client's calls. */
export function clientDoors() {
  return { gate: new RateLimitGate(), extensions: new ExtensionSupport({ reprobeAfterMs: 600_000 }) };
}
