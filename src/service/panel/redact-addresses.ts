import { addressSpans } from '../../ip/addresses-in-text.js';

/** What an address or range is replaced with where a stranger or a role without `see-ip` reads. */
export const HIDDEN_ADDRESS = '[address hidden]';

/**
 * The text with every IPv4 or IPv6 address, range or address with its port replaced by
 * {@link HIDDEN_ADDRESS}, whatever is glued around it (see `addressSpans` for what stays).
 */
export function redactAddresses(text: string): string {
  const spans = addressSpans(text);
  if (spans.length === 0) return text;
  let result = '';
  let from = 0;
  for (const span of spans) {
    result += text.slice(from, span.start) + HIDDEN_ADDRESS;
    from = span.end;
  }
  return result + text.slice(from);
}

/** The class of {@link visitorInput}'s copies: not a plain object, so {@link redactAddressesIn} leaves it as it is. */
class VisitorInput {}

/**
 * A copy of what the visitor just sent (a refused form shown again, a confirmation page carrying the
 * form on): it is theirs, so it is shown as typed. Redacting it would store `[address hidden]` in
 * place of what a staff member wrote once they confirm.
 */
export function visitorInput<Value extends object>(value: Value): Value {
  return Object.assign(new VisitorInput(), value);
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A copy of a page's data with every string redacted, in plain objects and arrays at any depth;
 * anything else (functions, dates, class instances) is kept as it is. The one gate of every page
 * a stranger or a role without `see-ip` reads, so a new field cannot forget it.
 */
export function redactAddressesIn<Value>(value: Value): Value {
  if (typeof value === 'string') return redactAddresses(value) as Value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactAddressesIn(item)) as Value;
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactAddressesIn(item);
  return copy as Value;
}
