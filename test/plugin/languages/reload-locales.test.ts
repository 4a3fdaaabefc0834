import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BailiffConfig, bailiffConfigSchema } from '../../../plugin/config/schema.js';
import type { Core } from '../../../plugin/core/core.js';
import { createCoreSettings } from '../../../plugin/core/settings.js';
import { installReload } from '../../../plugin/features/reload.js';
import { loadBundledMessages } from '../../../plugin/messages/load.js';
import { loadBundledLocales, loadOwnerLocales } from '../../../plugin/messages/locale-files.js';
import type { MessageTable } from '../../../plugin/messages/schema.js';
import type { ConfigFile } from '../../../src/runtime/plugin-api.js';
import { recordingLogger } from '../../support/recording-logger.js';

const root = join(import.meta.dirname, '..', '..', '..');
const english = loadBundledMessages(root);
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const fixed = <T>(value: T): ConfigFile<T> => ({ path: '/x', get: () => value, reload: () => value });

describe("/bailiff reload and the owner's locale files", () => {
  it('takes a changed file, and keeps the running messages when a file turns invalid', () => {
    const folder = mkdtempSync(join(tmpdir(), 'bailiff-reload-locales-'));
    folders.push(folder);
    const file = join(folder, 'messages.de.yml');
    writeFileSync(file, 'reason:\n  none: "ohne Angabe"\n');
    const config: BailiffConfig = bailiffConfigSchema.parse({});
    const read = () => loadOwnerLocales(folder, english, () => {});
    const settings = createCoreSettings(config, {}, english, {
      bundled: loadBundledLocales(join(root, 'config')),
      owner: read(),
    });
    const { logger } = recordingLogger();
    const core = { settings, enforcement: { logger } } as unknown as Core;
    const reload = installReload(core, {
      config: fixed(config),
      messages: fixed<MessageTable>({}),
      locales: read,
    });
    const german = () => settings.messages({ locale: 'de-DE' }).render('reason.none');
    expect(german()).toBe('ohne Angabe');

    writeFileSync(file, 'reason:\n  none: "neu"\n');
    reload.reload();
    expect(german()).toBe('neu');

    writeFileSync(file, 'reason:\n  none: 42\n');
    expect(() => reload.reload()).toThrow(/messages\.de\.yml[\s\S]*reason\.none/);
    expect(german()).toBe('neu');
  });
});
