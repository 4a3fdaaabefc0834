import { describe, expect, it } from 'vitest';
import { heldWeight, issuerWeightOf, joiningWeightOf, WEIGHT_STEPS } from '../../plugin/identity/immunity-weight.js';
import { PermissionService } from '../../src/runtime/permissions.js';
import type { PreLoginEvent } from '../../src/runtime/plugin-api.js';

const holding = (nodes: string[]) => (node: string) => nodes.includes(node);
const preLogin = (name: string, uuid: string) => ({ name, uuid, ip: undefined }) as unknown as PreLoginEvent;

describe('immunity weight of in-game permissions', () => {
  it('is the highest bailiff.weight.<n> held among the steps, 0 without any', () => {
    expect(heldWeight(holding([]))).toBe(0);
    expect(heldWeight(holding(['bailiff.weight.5', 'bailiff.weight.20']))).toBe(20);
    expect(heldWeight(holding(['bailiff.weight.7']))).toBe(7);
    // Not a step: a host is asked node by node, so only the listed nodes count.
    expect(heldWeight(holding(['bailiff.weight.13']))).toBe(0);
    expect(WEIGHT_STEPS).toHaveLength(28);
  });

  it('sends no issuer weight for 0; a holder of every node (wildcard, op, console) has 100', () => {
    const sender = (has: (node: string) => boolean) => ({
      kind: 'player' as const,
      name: 'Mod',
      sendMessage: () => {},
      hasPermission: has,
    });
    expect(issuerWeightOf(sender(() => false))).toBeUndefined();
    expect(issuerWeightOf(sender(holding(['bailiff.weight.10'])))).toBe(10);
    expect(issuerWeightOf(sender(() => true))).toBe(100);
  });

  it("reads a joining player's weight from permissions.yml by name or UUID, 0 without one", () => {
    const permissions = new PermissionService({
      ops: ['Owner'],
      grants: {
        Elder: ['bailiff.weight.20'],
        '853c80ef-3c37-49fd-aa49-938b674adae6': ['bailiff.*'],
        Demoted: ['bailiff.weight.20', '-bailiff.weight.20'],
      },
    });
    expect(joiningWeightOf(permissions, preLogin('Elder', '069a79f4-44e9-4726-a5be-fca90e38aaf5'))).toBe(20);
    expect(joiningWeightOf(permissions, preLogin('jeb_', '853c80ef-3c37-49fd-aa49-938b674adae6'))).toBe(100);
    expect(joiningWeightOf(permissions, preLogin('Owner', '61699b2e-d327-4a01-9f1e-0ea8c3f06bc6'))).toBe(100);
    expect(joiningWeightOf(permissions, preLogin('Demoted', '61699b2e-d327-4a01-9f1e-0ea8c3f06bc8'))).toBe(0);
    expect(joiningWeightOf(permissions, preLogin('Nobody', '61699b2e-d327-4a01-9f1e-0ea8c3f06bc7'))).toBe(0);
  });
});
