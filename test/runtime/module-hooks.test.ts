import { describe, expect, it } from 'vitest';
import { type ModuleHooksData, resolveWith } from '../../src/runtime/module-hooks.js';

const data: ModuleHooksData = {
  sdkUrl: 'file:///opt/bailiff/sdk.mjs',
  fallbackParentUrl: 'file:///opt/bailiff/module-hooks.mjs',
};

/** A resolver that knows only the runtime's installation. */
function nextResolve(specifier: string, context?: { parentURL?: string }) {
  if (context?.parentURL?.startsWith('file:///opt/bailiff/'))
    return { url: `file:///opt/bailiff/node_modules/${specifier}/index.js` };
  throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
}

describe('module hooks: what the runtime provides to plugins', () => {
  it('resolves bailiff/plugin to the runtime’s SDK from anywhere', async () => {
    const resolved = await resolveWith(
      data,
      'bailiff/plugin',
      { parentURL: 'file:///srv/plugins/x/main.js' },
      nextResolve,
    );
    expect(resolved).toEqual({ url: data.sdkUrl, shortCircuit: true });
  });

  it('resolves a bare import the plugin folder lacks from the runtime’s installation', async () => {
    const resolved = await resolveWith(
      data,
      'better-sqlite3',
      { parentURL: 'file:///srv/plugins/Bailiff/bailiff.mjs' },
      nextResolve,
    );
    expect(resolved.url).toBe('file:///opt/bailiff/node_modules/better-sqlite3/index.js');
  });

  it('leaves libraries and relative imports with their own error', async () => {
    const inLibrary = { parentURL: 'file:///srv/node_modules/lib/index.js' };
    await expect(resolveWith(data, 'missing', inLibrary, nextResolve)).rejects.toThrow("Cannot find package 'missing'");
    const relative = { parentURL: 'file:///srv/plugins/x/main.js' };
    await expect(resolveWith(data, './nope.js', relative, nextResolve)).rejects.toThrow(
      "Cannot find package './nope.js'",
    );
  });

  it('keeps the original error when the runtime cannot resolve it either', async () => {
    const never = (specifier: string) => {
      throw new Error(`Cannot find package '${specifier}' from the plugin`);
    };
    const parent = { parentURL: 'file:///srv/plugins/x/main.js' };
    await expect(resolveWith(data, 'nothing', parent, never)).rejects.toThrow('from the plugin');
  });
});
