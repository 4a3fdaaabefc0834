import { describe, expect, it } from 'vitest';
import { componentText } from '../../src/minecraft/chat-text.js';
import { offlineUuid } from '../../src/minecraft/offline-uuid.js';

describe('componentText', () => {
  it('reads a JSON text component with extras (before 1.20.3)', () => {
    expect(componentText('{"text":"You are banned","extra":[{"text":": x-ray"}]}')).toBe('You are banned: x-ray');
  });

  it('reads an NBT compound with a list of extras (1.20.3 and later)', () => {
    const nbt = {
      type: 'compound',
      value: {
        text: { type: 'string', value: 'Muted' },
        extra: { type: 'list', value: { type: 'string', value: [' for ', 'spam'] } },
      },
    };
    expect(componentText(nbt)).toBe('Muted for spam');
  });

  it('keeps a plain string that is not JSON', () => {
    expect(componentText('connection ended')).toBe('connection ended');
  });
});

describe('offlineUuid', () => {
  it('is the version-3 UUID of "OfflinePlayer:" + name, case-sensitive', () => {
    const uuid = offlineUuid('Alice');
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(offlineUuid('Alice')).toBe(uuid);
    expect(offlineUuid('alice')).not.toBe(uuid);
  });
});
