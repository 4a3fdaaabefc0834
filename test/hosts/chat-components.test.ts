import { describe, expect, it } from 'vitest';
import { toJsonComponent, toNbtComponent } from '../../src/hosts/flying-squid/chat-components.js';
import { parseColourCodes } from '../../src/runtime/colour-codes.js';

describe('chat components for the client version', () => {
  const component = toJsonComponent(parseColourCodes('&cNo &lway'));

  it('builds a JSON component (before 1.20.3)', () => {
    expect(JSON.parse(JSON.stringify(component))).toEqual({
      text: '',
      extra: [
        { text: 'No ', color: 'red' },
        { text: 'way', color: 'red', bold: true },
      ],
    });
  });

  it('builds the same component as anonymous NBT (1.20.3 and later)', () => {
    expect(toNbtComponent(component)).toEqual({
      type: 'compound',
      name: '',
      value: {
        text: { type: 'string', value: '' },
        extra: {
          type: 'list',
          value: {
            type: 'compound',
            value: [
              { text: { type: 'string', value: 'No ' }, color: { type: 'string', value: 'red' } },
              {
                text: { type: 'string', value: 'way' },
                color: { type: 'string', value: 'red' },
                bold: { type: 'byte', value: 1 },
              },
            ],
          },
        },
      },
    });
  });

  it('encodes empty text as a bare component', () => {
    expect(toJsonComponent([])).toEqual({ text: '' });
  });
});
