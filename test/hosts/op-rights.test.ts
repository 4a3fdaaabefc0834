import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { FsPlayer, FsServer } from '../../src/hosts/flying-squid/flying-squid-types.js';
import { shareOpRights } from '../../src/hosts/flying-squid/op-rights.js';
import { PermissionService } from '../../src/runtime/permissions.js';

const aliceUuid = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

function join(serv: EventEmitter, username: string, uuid: string): FsPlayer {
  const player = { _client: { username, uuid }, op: false } as unknown as FsPlayer;
  serv.emit('newPlayer', player);
  // What flying-squid's login does next: reset op from `everybody-op`.
  player.op = false;
  return player;
}

describe("runtime ops get flying-squid's op rights", () => {
  it('makes players listed in ops (by name or UUID, any spelling) flying-squid ops, and nobody else', () => {
    const serv = new EventEmitter();
    const permissions = new PermissionService({ ops: ['admin', aliceUuid.replaceAll('-', '').toUpperCase()] });
    shareOpRights(serv as unknown as FsServer, permissions);
    expect(join(serv, 'Admin', 'a6a64ce0-0000-3000-8000-000000000001').op).toBe(true);
    expect(join(serv, 'Alice', aliceUuid).op).toBe(true);
    expect(join(serv, 'Bob', 'a6a64ce0-0000-3000-8000-000000000002').op).toBe(false);
  });

  it("keeps flying-squid's own /op and /deop for other players, and follows a changed ops list", () => {
    const serv = new EventEmitter();
    const permissions = new PermissionService({ ops: ['Admin'] });
    shareOpRights(serv as unknown as FsServer, permissions);
    const bob = join(serv, 'Bob', 'a6a64ce0-0000-3000-8000-000000000002');
    const admin = join(serv, 'Admin', 'a6a64ce0-0000-3000-8000-000000000001');
    bob.op = true;
    expect(bob.op).toBe(true);
    bob.op = false;
    expect(bob.op).toBe(false);
    // server.yml is the source of truth for its ops.
    admin.op = false;
    expect(admin.op).toBe(true);
    permissions.setOps(['Bob']);
    expect(bob.op).toBe(true);
    expect(admin.op).toBe(false);
  });
});
