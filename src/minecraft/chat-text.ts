/** An NBT tag (chat components are NBT from 1.20.3 on) as plain values. */
function simplifyNbt(tag: unknown): unknown {
  if (tag === null || typeof tag !== 'object' || !('type' in tag) || !('value' in tag)) return tag;
  const { type, value } = tag as { type: string; value: unknown };
  if (type === 'compound') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, simplifyNbt(v)]));
  }
  if (type === 'list') {
    const list = value as { type: string; value: unknown[] };
    return list.value.map((item) => simplifyNbt({ type: list.type, value: item }));
  }
  return value;
}

/**
 * The plain text of a chat component as a client receives it: a JSON string or object before
 * 1.20.3, an NBT compound after. Used to read kick reasons and messages in bots.
 */
export function componentText(value: unknown): string {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === 'object' && parsed !== null ? componentText(parsed) : value;
    } catch {
      return value;
    }
  }
  const component = simplifyNbt(value);
  if (typeof component === 'string') return component;
  if (Array.isArray(component)) return component.map(componentText).join('');
  if (component === null || typeof component !== 'object') return component === undefined ? '' : String(component);
  const { text, extra } = component as { text?: unknown; extra?: unknown };
  // An NBT compound written without a key holds its text under ''.
  const own = typeof text === 'string' ? text : String((component as Record<string, unknown>)[''] ?? '');
  return own + (Array.isArray(extra) ? extra.map(componentText).join('') : '');
}
