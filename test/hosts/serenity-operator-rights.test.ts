import { PermissionMember, type Player as SerenityPlayer } from '@serenityjs/core';
import { AbilityIndex } from '@serenityjs/protocol';
import { describe, expect, it } from 'vitest';
import { shareOperatorRights } from '../../src/hosts/serenity/operator-rights.js';
import { PermissionService } from '../../src/runtime/permissions.js';

const aliceUuid = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

/** The part of a SerenityJS 0.8.21 player that operator rights touch, with its `isOp` as SerenityJS has it. */
class FakePlayer {
  readonly abilityValues = new Map<AbilityIndex, boolean>();
  readonly abilities = { setAbility: (index: AbilityIndex, value: boolean) => this.abilityValues.set(index, value) };
  commandLists = 0;
  constructor(
    readonly username: string,
    readonly permissions: PermissionMember,
  ) {
    permissions.player = this as unknown as SerenityPlayer;
    this.abilities.setAbility(AbilityIndex.OperatorCommands, this.isOp);
  }
  get isOp(): boolean {
    return this.permissions.has('serenity.operator');
  }
  set isOp(value: boolean) {
    if (value) this.permissions.add('serenity.operator');
    else this.permissions.remove('serenity.operator');
  }
  getTrait() {
    return { sendAvailableCommands: () => void this.commandLists++ };
  }
  asSerenity(): SerenityPlayer {
    return this as unknown as SerenityPlayer;
  }
}

function join(permissions: PermissionService, name: string, member: PermissionMember): FakePlayer {
  const player = new FakePlayer(name, member);
  shareOperatorRights(player.asSerenity(), permissions);
  return player;
}

describe("runtime ops get SerenityJS's operator rights", () => {
  it('makes players listed in ops (by name or UUID) operators with the operator abilities, and nobody else', () => {
    const permissions = new PermissionService({ ops: ['admin', aliceUuid.replaceAll('-', '').toUpperCase()] });
    const admin = join(permissions, 'Admin', new PermissionMember('a6a64ce0-0000-3000-8000-000000000001'));
    const alice = join(permissions, 'Alice', new PermissionMember(aliceUuid));
    const bob = join(permissions, 'Bob', new PermissionMember('a6a64ce0-0000-3000-8000-000000000002'));
    for (const op of [admin, alice]) {
      expect(op.isOp).toBe(true);
      expect(op.abilityValues.get(AbilityIndex.OperatorCommands)).toBe(true);
      expect(op.commandLists).toBe(1);
    }
    expect(bob.isOp).toBe(false);
    expect(bob.abilityValues.get(AbilityIndex.OperatorCommands)).toBe(false);
    // Nothing is added to SerenityJS's own list (what a permissions file would hold).
    expect(admin.permissions.permissions).toEqual([]);
  });

  it("keeps SerenityJS's /op and /deop for other players, cannot deop a listed op, and follows a changed ops list", () => {
    const permissions = new PermissionService({ ops: ['Admin'] });
    const bob = join(permissions, 'Bob', new PermissionMember('a6a64ce0-0000-3000-8000-000000000002'));
    const admin = join(permissions, 'Admin', new PermissionMember('a6a64ce0-0000-3000-8000-000000000001'));
    bob.isOp = true;
    expect(bob.isOp).toBe(true);
    bob.isOp = false;
    expect(bob.isOp).toBe(false);
    admin.isOp = false;
    expect(admin.isOp).toBe(true);
    permissions.setOps(['Bob']);
    expect(bob.isOp).toBe(true);
    expect(admin.isOp).toBe(false);
  });

  it('wraps the member SerenityJS keeps across sessions only once', () => {
    const permissions = new PermissionService({ ops: ['Admin'] });
    const member = new PermissionMember('a6a64ce0-0000-3000-8000-000000000001');
    join(permissions, 'Admin', member);
    const check = member.has;
    expect(join(permissions, 'Admin', member).isOp).toBe(true);
    expect(member.has).toBe(check);
  });
});
