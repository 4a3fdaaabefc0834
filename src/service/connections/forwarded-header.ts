/** One element of a `Forwarded` header (RFC 7239): its parameters, names in lower case, values unquoted. */
export type ForwardedElement = Readonly<Record<string, string>>;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Splits `text` at `separator` outside quoted strings; undefined when a quoted string is not closed. */
function splitOutsideQuotes(text: string, separator: string): string[] | undefined {
  const parts: string[] = [];
  let start = 0;
  let isQuoted = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (isQuoted) {
      if (char === '\\') at += 1;
      else if (char === '"') isQuoted = false;
    } else if (char === '"') {
      isQuoted = true;
    } else if (char === separator) {
      parts.push(text.slice(start, at));
      start = at + 1;
    }
  }
  if (isQuoted) return undefined;
  parts.push(text.slice(start));
  return parts;
}

/** A token, or a quoted string with its escapes removed; undefined for anything else. */
function parameterValue(text: string): string | undefined {
  if (TOKEN.test(text)) return text;
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return undefined;
  let value = '';
  for (let at = 1; at < text.length - 1; at += 1) {
    let char = text[at]!;
    if (char === '\\') {
      at += 1;
      if (at >= text.length - 1) return undefined;
      char = text[at]!;
    } else if (char === '"') {
      return undefined;
    }
    // qdtext and quoted-pair exclude control characters other than tab.
    if (char !== '\t' && /\p{Cc}/u.test(char)) return undefined;
    value += char;
  }
  return value;
}

function parseElement(text: string): ForwardedElement | undefined {
  const pairs = splitOutsideQuotes(text, ';');
  if (!pairs) return undefined;
  const element: Record<string, string> = {};
  for (const pair of pairs.map((raw) => raw.trim())) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    if (equals <= 0) return undefined;
    const name = pair.slice(0, equals).trim().toLowerCase();
    const value = parameterValue(pair.slice(equals + 1).trim());
    if (!TOKEN.test(name) || value === undefined || Object.hasOwn(element, name)) return undefined;
    element[name] = value;
  }
  return element;
}

/**
 * The elements of one `Forwarded` header line, left (the client's side) to right (the nearest
 * proxy): `for=192.0.2.60;proto=https, for="[2001:db8::17]:4711"`. An element that breaks the
 * grammar is `undefined` in its place, so a reader walking from the right stops there; a line whose
 * quoted string is never closed is one such element. Empty elements are skipped.
 */
export function parseForwardedLine(line: string): Array<ForwardedElement | undefined> {
  const elements = splitOutsideQuotes(line, ',');
  if (!elements) return [undefined];
  return elements.filter((text) => text.trim() !== '').map(parseElement);
}
