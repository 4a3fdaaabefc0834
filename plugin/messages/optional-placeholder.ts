/** Colour codes and spaces: what is left of a line whose text was all about an empty placeholder. */
const ONLY_CODES = /^(?:\s|&[0-9a-fk-or])*$/i;
/** The end of the sentence before the placeholder: `. `, `) `, `! `, `? ` or `: ` followed by more text. */
const SENTENCE_END = /[.)!?]\s+(?=\S)/g;

/**
 * The template without what only makes sense when `{name}` has a value ("Appeal at: {appealUrl}"):
 * in each line holding it, the text from the end of the sentence before it through the
 * placeholder is cut; a line left with nothing but colour codes is dropped.
 */
export function withoutClauseOf(template: string, name: string): string {
  const placeholder = `{${name}}`;
  const lines: string[] = [];
  for (const line of template.split('\n')) {
    const at = line.indexOf(placeholder);
    if (at === -1) {
      lines.push(line);
      continue;
    }
    let cut = 0;
    for (const match of line.slice(0, at).matchAll(SENTENCE_END)) cut = match.index + 1;
    const kept = (line.slice(0, cut) + line.slice(at + placeholder.length)).trimEnd();
    if (!ONLY_CODES.test(kept)) lines.push(kept);
  }
  return lines.join('\n');
}
