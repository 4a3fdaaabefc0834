import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { createError } from '../../errors/create-error.js';
import { describeIssue } from '../http/validate.js';
import { type ParsedSeed, serviceSeed } from './seed-schema.js';

/** A seed that cannot be used; the message names the file (or `seed`), the JSON path and what was expected. */
export class SeedError extends createError('BAILIFF_SERVICE_SEED', 'SeedError') {}

function checkUniqueKeys(seed: ParsedSeed, source: string): void {
  const seen = new Map<string, string>();
  seed.networks.forEach((network, n) => {
    network.servers.forEach((server, s) => {
      const where = `networks[${n}].servers[${s}].apiKey`;
      const first = seen.get(server.apiKey);
      if (first) throw new SeedError(`${source}: ${where}: same API key as ${first}; every server needs its own key`);
      seen.set(server.apiKey, where);
    });
  });
  seed.networks.forEach((network, n) => {
    const names = new Set<string>();
    network.webhooks.forEach((webhook, w) => {
      if (names.has(webhook.name)) {
        throw new SeedError(
          `${source}: networks[${n}].webhooks[${w}].name: '${webhook.name}' is used twice in this network`,
        );
      }
      names.add(webhook.name);
    });
  });
  seed.networks.forEach((network, n) => {
    const known = new Set(network.players.map((player) => player.uuid.toLowerCase()));
    network.punishments.forEach((punishment, p) => {
      if (!known.has(punishment.targetUuid.toLowerCase())) {
        throw new SeedError(
          `${source}: networks[${n}].punishments[${p}].targetUuid: ${punishment.targetUuid} is not in networks[${n}].players`,
        );
      }
    });
  });
}

/** Validates an already-parsed seed object. */
export function parseSeed(data: unknown, source = 'seed'): ParsedSeed {
  const result = serviceSeed.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0] as z.core.$ZodIssue;
    throw new SeedError(`${source}: ${describeIssue(issue, data, '(root)')}`);
  }
  checkUniqueKeys(result.data, source);
  return result.data;
}

/** Reads and validates a seed file. */
export function loadSeed(path: string): ParsedSeed {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SeedError(`${path}: cannot read seed file (${(error as Error).message})`, { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SeedError(`${path}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  return parseSeed(data, path);
}
