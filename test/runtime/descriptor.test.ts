import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPluginDescriptor } from '../../src/runtime/descriptor.js';
import { FileValidationError } from '../../src/runtime/errors.js';
import { tempDir } from './helpers/temp-dir.js';

describe('plugin.yml validation', () => {
  const dir = tempDir();
  afterEach(() => dir.remove());

  const load = (yaml: string) => {
    dir.write('p/plugin.yml', yaml);
    return readPluginDescriptor(join(dir.path, 'p'));
  };
  const failure = (yaml: string): FileValidationError => {
    try {
      load(yaml);
    } catch (error) {
      return error as FileValidationError;
    }
    throw new Error('expected a validation error');
  };

  it('reads a full descriptor and fills defaults', () => {
    const descriptor = load(`
name: Demo
version: 1.0
main: dist/index.js
commands:
  punish:
    usage: /punish <player>
    aliases: p
    permission: demo.punish
  status:
permissions:
  demo.punish:
    default: op
  demo.read:
    default: true
`);
    expect(descriptor).toEqual({
      name: 'Demo',
      version: '1',
      main: 'dist/index.js',
      authors: [],
      depend: [],
      softdepend: [],
      commands: {
        punish: { usage: '/punish <player>', aliases: ['p'], permission: 'demo.punish' },
        status: { aliases: [] },
      },
      permissions: { 'demo.punish': { default: 'op' }, 'demo.read': { default: true } },
    });
  });

  it('names the file, the key, what was expected and what was received', () => {
    const error = failure('name: Demo\nversion: "1"\ncommands:\n  punish:\n    aliases: 5\n');
    expect(error).toBeInstanceOf(FileValidationError);
    expect(error.code).toBe('BAILIFF_PLUGIN_DESCRIPTOR');
    expect(error.file).toBe(join(dir.path, 'p', 'plugin.yml'));
    expect(error.issues).toContainEqual({ key: 'main', expected: 'string', received: 'nothing' });
    expect(error.issues).toContainEqual(
      expect.objectContaining({ key: 'commands.punish.aliases', received: 'number 5' }),
    );
    expect(error.message).toContain(join(dir.path, 'p', 'plugin.yml'));
    expect(error.message).toContain('main: expected string, received nothing');
  });

  it('lists the allowed values of a permission default', () => {
    const error = failure('name: Demo\nversion: "1"\nmain: a.js\npermissions:\n  x.y:\n    default: maybe\n');
    const issue = error.issues.find((candidate) => candidate.key === 'permissions.x.y.default');
    expect(issue?.received).toBe('string "maybe"');
    expect(issue?.expected).toMatch(/op/);
  });

  it('reports a YAML syntax error with the file and line', () => {
    const error = failure('name: Demo\nversion: "1"\nmain: [unclosed\n');
    expect(error.issues[0]?.line).toBeGreaterThanOrEqual(3);
    expect(error.message).toMatch(/plugin\.yml:\n {2}line \d+: expected /);
  });

  it('refuses a name with spaces', () => {
    const error = failure('name: My Plugin\nversion: "1"\nmain: a.js\n');
    expect(error.issues[0]).toMatchObject({ key: 'name', received: 'string "My Plugin"' });
  });

  it('names a missing file', () => {
    expect(() => readPluginDescriptor(join(dir.path, 'nowhere'))).toThrow(/nowhere\/plugin\.yml/);
  });
});
