import { CST, Parser, type YAMLError } from 'yaml';
import type { FileIssue } from './errors.js';

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/**
 * Where a quoted value left open starts. The parser reports a missing closing quote at the end of
 * the file (it read everything after as part of the value); the owner's typo is where it opened.
 */
function unclosedQuoteStart(text: string): { offset: number; quote: string } | undefined {
  let found: { offset: number; quote: string } | undefined;
  for (const token of new Parser().parse(text)) {
    if (token.type !== 'document') continue;
    CST.visit(token, (item) => {
      for (const part of [item.key, item.value]) {
        if (found || !part || (part.type !== 'double-quoted-scalar' && part.type !== 'single-quoted-scalar')) continue;
        const quote = part.source[0]!;
        const body = part.source.trimEnd();
        const closed = body.length > 1 && body.endsWith(quote) && (quote === "'" || !/(^|[^\\])(\\\\)*\\"$/.test(body));
        if (!closed) found = { offset: part.offset, quote };
      }
      return found ? CST.visit.BREAK : undefined;
    });
    if (found) break;
  }
  return found;
}

/** What the owner should have written, for the parser's error codes owners meet. */
const EXPECTED: Partial<Record<string, string>> = {
  BAD_INDENT: 'the items of one mapping or list indented to the same column',
  TAB_AS_INDENT: 'spaces for indentation',
  DUPLICATE_KEY: 'each key once in a mapping',
  BLOCK_AS_IMPLICIT_KEY: 'one key per line (quote a value holding ": ")',
  MULTILINE_IMPLICIT_KEY: 'a key on one line',
};

/** A YAML syntax error as a file issue: the line to look at, what was expected there and what was found. */
export function yamlSyntaxIssue(text: string, error: YAMLError): FileIssue {
  const found = error.message.split('\n')[0]!;
  if (error.code === 'MISSING_CHAR' && /quote/.test(found)) {
    const start = unclosedQuoteStart(text);
    if (start) {
      return {
        key: '',
        line: lineOf(text, start.offset),
        expected: `a closing ${start.quote} for the value that opens with ${start.quote} on this line`,
        received: 'none up to the end of the file',
      };
    }
  }
  return {
    key: '',
    line: lineOf(text, error.pos[0] ?? 0),
    expected: EXPECTED[error.code] ?? 'valid YAML',
    received: found,
  };
}
