/** The lines of `markdown` under the heading `heading` (any level), up to the next heading. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#{1,6} /.test(line) && line.replace(/^#+ /, '') === heading);
  if (start === -1) throw new Error(`no heading "${heading}"`);
  const end = lines.findIndex((line, index) => index > start && /^#{1,6} /.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** The backquoted names in the first cell of each table row of `markdown`. */
export function firstColumnCodeSpans(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s:|-]+$/.test(line))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
export function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of every heading of `markdown` (outside fenced code). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) anchors.add(headingAnchor(line.replace(/^#+ /, '').trim()));
  }
  return anchors;
}

/** Targets of the inline links `[text](target)` of `markdown`, outside fenced code. */
export function linkTargets(markdown: string): string[] {
  let fenced = false;
  const targets: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) targets.push(match[1]!);
  }
  return targets;
}
