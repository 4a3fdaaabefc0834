import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parser } from 'stream-json';
import { errorMessage } from '../../errors/error-message.js';

export type StructureCheck = { ok: true; total: number } | { ok: false; message: string };

interface Token {
  name: string;
  value?: unknown;
}

/**
 * Tracks just enough of the token stream to say whether the file is `{"players": [ {...}, ... ]}`,
 * counting the players on the way; nothing is assembled, so memory stays flat for any size.
 */
class StructureTracker {
  depth = 0;
  total = 0;
  problem: string | undefined;
  private sawPlayers = false;
  private expectPlayersArray = false;
  private inPlayers = false;

  accept(token: Token): void {
    if (this.problem) return;
    const opens = token.name === 'startObject' || token.name === 'startArray';
    const closes = token.name === 'endObject' || token.name === 'endArray';
    if (this.depth === 0 && token.name !== 'startObject') {
      this.problem = 'migrationFile: must be a JSON object with a "players" array';
      return;
    }
    if (this.expectPlayersArray) {
      this.expectPlayersArray = false;
      if (token.name !== 'startArray') {
        this.problem = 'migrationFile: players must be an array';
        return;
      }
      this.inPlayers = true;
    } else if (this.depth === 1 && token.name === 'keyValue' && token.value === 'players') {
      this.sawPlayers = true;
      this.expectPlayersArray = true;
    } else if (this.inPlayers && this.depth === 2 && !closes) {
      if (token.name !== 'startObject') {
        this.problem = `migrationFile: players[${this.total}] must be an object`;
        return;
      }
      this.total += 1;
    }
    if (opens) this.depth += 1;
    if (closes) {
      this.depth -= 1;
      if (this.depth === 1) this.inPlayers = false;
    }
  }

  finish(): StructureCheck {
    if (this.problem) return { ok: false, message: this.problem };
    if (!this.sawPlayers) return { ok: false, message: 'migrationFile: players is required (an array of players)' };
    return { ok: true, total: this.total };
  }
}

/** Reads the whole file once as a token stream: 400-worthy problems, or the number of players. */
export async function checkMigrationFile(path: string): Promise<StructureCheck> {
  const tracker = new StructureTracker();
  const sink = new Writable({
    objectMode: true,
    write(token: Token, _encoding, done) {
      tracker.accept(token);
      done();
    },
  });
  try {
    await pipeline(createReadStream(path), parser.asStream({ packValues: true, streamValues: false }), sink);
  } catch (error) {
    return {
      ok: false,
      message: `migrationFile: not valid JSON (${errorMessage(error)})`,
    };
  }
  return tracker.finish();
}
