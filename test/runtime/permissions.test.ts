import { afterEach, describe, expect, it } from 'vitest';
import { PermissionService, readPermissionsFile } from '../../src/runtime/permissions.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import { tempDir } from './helpers/temp-dir.js';

const aliceUuid = '11111111-2222-3333-4444-555555555555';
const sender = (name: string, uuid?: string): CommandSender =>
  ({ kind: 'player', name, uuid, sendMessage: () => {}, hasPermission: () => false }) as CommandSender;
const consoleSender: CommandSender = {
  kind: 'console',
  name: 'CONSOLE',
  sendMessage: () => {},
  hasPermission: () => true,
};

describe('permissions', () => {
  const dir = tempDir();
  afterEach(() => dir.remove());

  const service = () => {
    const permissions = new PermissionService({
      ops: ['OpName', '99999999-0000-0000-0000-000000000000'],
      grants: {
        alice: ['demo.staff.*', '-demo.read'],
        [aliceUuid.replaceAll('-', '').toUpperCase()]: ['demo.extra'],
        Bob: ['*'],
      },
    });
    permissions.declare('Demo', {
      'demo.read': { default: true },
      'demo.ban': { default: 'op' },
      'demo.secret': { default: false },
    });
    return permissions;
  };

  it('applies declared defaults: true for all, op for ops (by name or UUID), false for nobody', () => {
    const permissions = service();
    expect(permissions.has(sender('Carol'), 'demo.read')).toBe(true);
    expect(permissions.has(sender('Carol'), 'demo.ban')).toBe(false);
    expect(permissions.has(sender('opname'), 'demo.ban')).toBe(true);
    expect(permissions.has(sender('Dave', '99999999-0000-0000-0000-000000000000'), 'demo.ban')).toBe(true);
    expect(permissions.has(sender('OpName'), 'demo.secret')).toBe(false);
    // Undeclared nodes default to op.
    expect(permissions.has(sender('OpName'), 'other.node')).toBe(true);
    expect(permissions.has(sender('Carol'), 'other.node')).toBe(false);
  });

  it('lets permissions.yml grant by name or UUID, with wildcards and revocations', () => {
    const permissions = service();
    const alice = sender('Alice', aliceUuid);
    expect(permissions.has(alice, 'demo.staff.kick')).toBe(true);
    expect(permissions.has(alice, 'demo.read')).toBe(false);
    expect(permissions.has(alice, 'demo.extra')).toBe(true);
    expect(permissions.has(sender('bob'), 'demo.secret')).toBe(true);
  });

  it('gives the console everything', () => {
    expect(service().has(consoleSender, 'demo.secret')).toBe(true);
    expect(service().isOp('OPNAME')).toBe(true);
  });

  it('reads permissions.yml, and treats a missing file as no grants', () => {
    expect(readPermissionsFile(dir.path)).toEqual({});
    dir.write('permissions.yml', 'players:\n  Alice: [a.b, -c]\n  "1111": null\n');
    expect(readPermissionsFile(dir.path)).toEqual({ Alice: ['a.b', '-c'], '1111': null });
  });

  it('names the file and key of a bad permissions.yml', () => {
    dir.write('permissions.yml', 'players:\n  Alice: a.b\n');
    expect(() => readPermissionsFile(dir.path)).toThrow(
      /permissions\.yml:\n {2}players\.Alice: expected array, received string "a\.b"/,
    );
  });
});
