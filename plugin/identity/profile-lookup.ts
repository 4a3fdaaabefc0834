import { z } from 'zod';
import { createError } from '../../src/errors/create-error.js';
import type { Timers } from '../../src/ports/timers.js';
import type { KnownPlayer } from './known-player.js';
import { asUuid } from './player-input.js';

/** Mojang's: answers `{"id": "<32 hex digits>", "name": "<name as registered>"}`, 404 (or 204) for no such account. */
export const MOJANG_PROFILE_URL = 'https://api.mojang.com/users/profiles/minecraft/{name}';

const profileAnswer = z.looseObject({ id: z.string(), name: z.string().min(1) });

export interface ProfileLookupOptions {
  /** The URL with `{name}` where the name goes. */
  urlTemplate: string;
  fetch: typeof fetch;
  timers: Timers;
  timeoutMs: number;
}

/** The lookup failed: the message says why, for the staff member (never a stack trace). */
export class ProfileLookupError extends createError('BAILIFF_PROFILE_LOOKUP', 'ProfileLookupError') {}

/**
 * The Java account of a name, from a Mojang-style profile service: the account (its UUID and the
 * name's registered case), or undefined when there is none. Throws {@link ProfileLookupError}
 * when the service cannot be asked or answers something else.
 */
export async function lookUpProfile(name: string, options: ProfileLookupOptions): Promise<KnownPlayer | undefined> {
  const url = options.urlTemplate.replace('{name}', encodeURIComponent(name));
  const host = new URL(url).host;
  const controller = new AbortController();
  const timer = options.timers.setTimeout(() => controller.abort(), options.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await options.fetch(url, { signal: controller.signal, headers: { accept: 'application/json' } });
    text = await response.text();
  } catch (error) {
    const why = controller.signal.aborted ? `no answer within ${options.timeoutMs} ms` : (error as Error).message;
    throw new ProfileLookupError(`${host} could not be asked: ${why}`);
  } finally {
    options.timers.clearTimeout(timer);
  }
  if (response.status === 204 || response.status === 404) return undefined;
  if (!response.ok) throw new ProfileLookupError(`${host} answered ${response.status}`);
  let parsed: z.infer<typeof profileAnswer> | undefined;
  try {
    parsed = profileAnswer.safeParse(JSON.parse(text)).data;
  } catch {
    parsed = undefined;
  }
  const uuid = parsed && asUuid(parsed.id);
  if (!parsed || !uuid) throw new ProfileLookupError(`${host} gave an answer without a profile id`);
  return { uuid, name: parsed.name };
}
