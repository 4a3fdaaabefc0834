import { rmSync } from 'node:fs';

/** What an in-game end-to-end test started; each part may be missing when a start failed. */
export interface GameTestParts {
  bots: Iterable<{ quit(): Promise<void> }>;
  game?: { stop(): Promise<unknown> };
  service?: { close(): Promise<void> };
  proxy?: { close(): Promise<void> };
  /** Removed last. */
  dir: string;
}

/** Quits the bots, stops the game server, closes the service and the proxy, in that order, and removes `dir`. */
export async function tearDownGameTest(parts: GameTestParts): Promise<void> {
  for (const bot of parts.bots) await bot.quit().catch(() => {});
  await parts.game?.stop();
  await parts.service?.close();
  await parts.proxy?.close();
  rmSync(parts.dir, { recursive: true, force: true });
}
