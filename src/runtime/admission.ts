import type { Logger } from '../ports/logger.js';
import { errorText } from './event-bus.js';
import { LOGIN_FAILED_MESSAGE, type PreLoginOutcome } from './pre-login.js';

/** A player asking to join, as the host saw the login. */
export interface JoinCandidate {
  uuid: string;
  name: string;
  /** The client's IP address without port, when the host knows it. */
  ip?: string;
  /** Bedrock: the Xbox user ID, when the host knows it. */
  xuid?: string;
  /** The client's language as a BCP 47 tag, when it reported one at login (Bedrock). */
  locale?: string;
}

/** What the host does with a connection the runtime decides about. */
export interface PendingConnection {
  /** Disconnects the client with `message` (`&` colour codes to render) so it never spawns. */
  refuse(message: string): void;
  /** False once the client went away during the check: then nothing is sent. @default always open */
  isOpen?(): boolean;
}

export interface AdmissionDeps {
  /** Resolves once plugins are enabled: no one is admitted unchecked. */
  ready: Promise<void>;
  firePreLogin(candidate: JoinCandidate): Promise<PreLoginOutcome>;
  logger: Logger;
}

function who({ name, uuid, xuid }: JoinCandidate): string {
  return `${name} (${uuid}${xuid === undefined ? '' : `, xuid ${xuid}`})`;
}

/**
 * The one pre-login sequence of every host: wait for the plugins, run the pre-login listeners
 * (bounded in time by the runtime), then admit, or refuse with the plugins' message. Never
 * rejects: a failure refuses the join with a generic message, since hosts would otherwise show
 * the error's text to the player (SerenityJS) or crash on it (flying-squid).
 */
export async function admitPlayer(
  deps: AdmissionDeps,
  candidate: JoinCandidate,
  connection: PendingConnection,
): Promise<boolean> {
  const isOpen = () => connection.isOpen?.() ?? true;
  try {
    await deps.ready;
    const outcome = await deps.firePreLogin(candidate);
    if (!isOpen()) return false;
    if (outcome.allowed) return true;
    deps.logger.info(`refused ${who(candidate)} at pre-login`, { reason: outcome.message });
    connection.refuse(outcome.message ?? '');
  } catch (error) {
    deps.logger.error(`pre-login of ${candidate.name} failed; connection closed`, { error: errorText(error) });
    try {
      if (isOpen()) connection.refuse(LOGIN_FAILED_MESSAGE);
    } catch {
      // The connection is already broken: the player is gone either way.
    }
  }
  return false;
}
