import { describe, expect, it } from 'vitest';
import { orderByDependencies } from '../../src/runtime/dependency-order.js';
import type { PluginDescriptor } from '../../src/runtime/plugin-api.js';

function plugin(name: string, depend: string[] = [], softdepend: string[] = []): { descriptor: PluginDescriptor } {
  return {
    descriptor: { name, version: '1', main: 'x.js', authors: [], depend, softdepend, commands: {}, permissions: {} },
  };
}

const names = (list: { descriptor: PluginDescriptor }[]) => list.map((p) => p.descriptor.name);

describe('dependency order', () => {
  it('enables dependencies (hard and present soft ones) first', () => {
    const result = orderByDependencies([
      plugin('C', ['B']),
      plugin('B', [], ['A']),
      plugin('A'),
      plugin('D', [], ['Gone']),
    ]);
    expect(names(result.ordered)).toEqual(['A', 'B', 'C', 'D']);
    expect(result.refused).toEqual([]);
  });

  it('refuses a plugin whose hard dependency is missing, and the plugins that need it', () => {
    const result = orderByDependencies([plugin('Needy', ['Missing']), plugin('Chain', ['Needy']), plugin('Fine')]);
    expect(names(result.ordered)).toEqual(['Fine']);
    expect(result.refused).toContainEqual({
      name: 'Needy',
      reason: "missing hard dependency 'Missing' (declared in depend)",
    });
    expect(result.refused).toContainEqual({
      name: 'Chain',
      reason: "hard dependency 'Needy' was refused (missing hard dependency 'Missing' (declared in depend))",
    });
  });

  it('refuses every plugin on a cycle with the cycle in the message', () => {
    const result = orderByDependencies([plugin('A', ['B']), plugin('B', ['C']), plugin('C', ['A']), plugin('Free')]);
    expect(names(result.ordered)).toEqual(['Free']);
    expect(result.refused.map((r) => r.name).sort()).toEqual(['A', 'B', 'C']);
    expect(result.refused.find((r) => r.name === 'C')?.reason).toBe('dependency cycle: A -> B -> C -> A');
  });

  it('ignores a soft dependency that would close a cycle', () => {
    const result = orderByDependencies([plugin('A', ['B']), plugin('B', [], ['A'])]);
    expect(names(result.ordered)).toEqual(['B', 'A']);
    expect(result.refused).toEqual([]);
  });
});
