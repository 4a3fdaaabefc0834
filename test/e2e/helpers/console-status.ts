import type { OutboxCounts } from './bailiff-cli.js';
import type { RunningGameServer } from './game-server.js';
import { waitFor } from './wait.js';

/** Types `bailiff status` on the console and resolves with what it printed. */
export async function consoleStatus(game: RunningGameServer): Promise<string> {
  const from = game.output().length;
  game.console('bailiff status');
  await waitFor('the status lines', () => {
    const printed = game.output().slice(from);
    return printed.includes('Outbox:') && printed.includes('Learning punishments from:');
  });
  // The lines are printed together; one more moment lets the pipe deliver any that follow the sources line.
  await new Promise((resolve) => setTimeout(resolve, 150));
  return game.output().slice(from);
}

/** The `Cached punishments: N` line of a status: how many the plugin has stored so far. */
export function cachedPunishments(status: string): number | undefined {
  const match = /Cached punishments:\D*?(\d+)/.exec(status);
  return match ? Number(match[1]) : undefined;
}

/** The `Outbox: N pending, M dead` line of a status. */
export function outboxLine(status: string): Pick<OutboxCounts, 'pending' | 'dead'> | undefined {
  const match = /Outbox: (\d+) pending, (\d+) dead/.exec(status);
  return match ? { pending: Number(match[1]), dead: Number(match[2]) } : undefined;
}

/** Asks for the status every `intervalMs` until the outbox has nothing pending; the last status either way. */
export async function statusOnceDrained(game: RunningGameServer, timeoutMs: number, intervalMs = 1000) {
  let last = '';
  try {
    await waitFor(
      'the outbox to have nothing pending',
      async () => {
        last = await consoleStatus(game);
        return outboxLine(last)?.pending === 0;
      },
      timeoutMs,
      intervalMs,
    );
    return { drained: true, status: last };
  } catch {
    return { drained: false, status: last };
  }
}
