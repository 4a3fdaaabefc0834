import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './command.js';

/** Where a secret may come from, so it never has to be on the command line (where `ps` shows it). */
export interface SecretSources {
  /** The flag holding the value itself, e.g. `--admin-token`. */
  flagName: string;
  flagValue: string | undefined;
  /** The flag naming a file that holds it, e.g. `--admin-token-file`. */
  fileFlagName: string;
  fileFlagValue: string | undefined;
  /** The environment variable holding it, e.g. `BAILIFF_ADMIN_TOKEN`; `<name>_FILE` names a file. */
  envName: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const given = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

function readSecretFile(path: string, from: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${from}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  // A file written by `echo` ends with a line break that is not part of the secret.
  const secret = text.trim();
  if (secret === '') throw new UsageError(`${from}: ${path} is empty`);
  if (/[\r\n]/.test(secret))
    throw new UsageError(`${from}: ${path} holds more than one line; put the secret alone in it`);
  return secret;
}

/**
 * The secret from, in order: the value flag, the file flag, the environment variable, the file
 * the `<env>_FILE` variable names; undefined when none is set. Both flags at once is a usage
 * error. Messages name the flag, variable or file, never the secret.
 */
export function readSecret(sources: SecretSources): string | undefined {
  const { flagName, flagValue, fileFlagName, fileFlagValue, envName, env, cwd } = sources;
  if (given(flagValue) && given(fileFlagValue)) {
    throw new UsageError(`give ${flagName} or ${fileFlagName}, not both`);
  }
  if (given(flagValue)) return flagValue.trim();
  if (given(fileFlagValue)) return readSecretFile(resolve(cwd, fileFlagValue), fileFlagName);
  if (given(env[envName])) return env[envName].trim();
  const envFile = env[`${envName}_FILE`];
  if (given(envFile)) return readSecretFile(resolve(cwd, envFile), `${envName}_FILE`);
  return undefined;
}
