import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, headingAnchor, linkTargets } from './helpers/markdown.js';
import { filesUnder, readRepositoryFile, repositoryRoot } from './helpers/repository-files.js';

const CODE_FOLDERS = ['src', 'plugin', 'test', 'bench', 'config'];
const CODE_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.yml', '.yaml', '.json'];
const documents = ['README.md', ...filesUnder('docs', ['.md'])];
const codeFiles = CODE_FOLDERS.flatMap((folder) => filesUnder(folder, CODE_EXTENSIONS));

/** Ways of pointing outside the repository (spelled in pieces so this file does not match itself). */
const OUTSIDE = [['..', 'shared'].join('/'), ['shared', 'spec'].join('/')];

function outsideReferences(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    readRepositoryFile(file)
      .split('\n')
      .flatMap((line, index) =>
        OUTSIDE.some((fragment) => line.includes(fragment)) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
      ),
  );
}

/** Links of a page whose file (or heading) does not exist in the repository. */
function brokenLinks(page: string): string[] {
  return linkTargets(readRepositoryFile(page)).flatMap((target) => {
    if (/^[a-z]+:/.test(target)) return [];
    const [path = '', anchor] = target.split('#');
    const file =
      path === ''
        ? page
        : normalize(join(dirname(page), path))
            .split('\\')
            .join('/');
    if (!existsSync(join(repositoryRoot, file))) {
      return [`${page}: ${target} (no file ${file})`];
    }
    if (anchor === undefined || !file.endsWith('.md')) return [];
    return anchorsOf(readRepositoryFile(file)).has(anchor) ? [] : [`${page}: ${target} (no heading #${anchor})`];
  });
}

/**
 * Markdown files that code files cite, as paths from the repository root (`docs/owners/commands.md`).
 * This folder's own tests name paths on purpose and are left out.
 */
function citedPages(): Array<{ file: string; page: string }> {
  return codeFiles
    .filter((file) => !file.startsWith('test/docs/'))
    .flatMap((file) =>
      [...readRepositoryFile(file).matchAll(/(?<![\w./-])[\w./-]+\.md\b/g)].map((match) => ({ file, page: match[0] })),
    );
}

describe('references stay inside the repository', () => {
  it('no doc or code file refers to a path outside the repository', () => {
    expect(outsideReferences([...documents, ...codeFiles])).toEqual([]);
  });

  it('catches a reference outside the repository', () => {
    expect(OUTSIDE.some((fragment) => `see ${['..', 'shared', 'spec', 'x.md'].join('/')}`.includes(fragment))).toBe(
      true,
    );
  });

  it('code cites the contract pages by their path in docs/contract/', () => {
    const bare = codeFiles.flatMap((file) =>
      [...readRepositoryFile(file).matchAll(/(?<![\w./-])(service-semantics|moderation-api)\.md/g)].map(
        (match) => `${file}: ${match[0]}`,
      ),
    );
    expect(bare).toEqual([]);
  });

  it('every Markdown file a code file cites exists in the repository', () => {
    const cited = citedPages();
    expect(cited.length).toBeGreaterThan(0);
    const missing = cited.filter(({ page }) => !existsSync(join(repositoryRoot, page)));
    expect(missing.map(({ file, page }) => `${file}: ${page}`)).toEqual([]);
  });

  it('every relative link of the README and docs/ reaches a file and heading of the repository', () => {
    expect(documents.flatMap(brokenLinks)).toEqual([]);
  });

  it('turns headings into the anchors GitHub gives them', () => {
    expect(headingAnchor('1. Inside an existing SerenityJS server')).toBe('1-inside-an-existing-serenityjs-server');
    expect(headingAnchor('The API client (`src/api/`)')).toBe('the-api-client-srcapi');
    expect(headingAnchor('messages.yml')).toBe('messagesyml');
  });
});
