import { CommandUsageError } from '../../src/runtime/plugin-api.js';

export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
}

/**
 * A 1-based page of `items`; a page past the end has no items (the command says there is no such
 * page rather than showing another). Throws a usage error for a non-number.
 */
export function pageOf<T>(items: readonly T[], pageArg: string | undefined, size: number): Page<T> {
  if (pageArg !== undefined && !/^[1-9]\d{0,5}$/.test(pageArg)) throw new CommandUsageError(`bad page ${pageArg}`);
  const pages = Math.max(1, Math.ceil(items.length / size));
  const page = pageArg === undefined ? 1 : Number(pageArg);
  return { items: items.slice((page - 1) * size, page * size), page, pages };
}
