import type { Client } from 'bedrock-protocol';
import type { Bot } from 'mineflayer';

/** A player's moves as the test makes them, and the server's corrections of its position. */
export interface Mover {
  /** Steps `dx` blocks along x from where the player is, as the client reports moves. */
  stepBy(dx: number): void;
  /** How many times the server put the player somewhere (teleports, move corrections). */
  readonly corrections: number;
  /** Where the client is now (x). */
  x(): number;
}

/** mineflayer: its physics reports the moved position at the next tick; `forcedMove` is the server's teleport. */
export function javaMover(bot: Bot): Mover {
  let corrections = 0;
  bot.on('forcedMove', () => {
    corrections += 1;
  });
  return {
    stepBy: (dx) => {
      bot.entity.position.x += dx;
    },
    get corrections() {
      return corrections;
    },
    x: () => bot.entity.position.x,
  };
}

type Vec3 = { x: number; y: number; z: number };

/**
 * bedrock-protocol has no movement of its own: the client sends one `player_auth_input` with the
 * new position; `move_player` of itself or `correct_player_move_prediction` is the server's answer.
 */
export function bedrockMover(client: Client): Mover {
  let corrections = 0;
  let tick = 0n;
  let at: Vec3 | undefined;
  const self = () => BigInt((client as unknown as { entityId: bigint | number }).entityId ?? -1);
  client.on('start_game', (packet: { player_position: Vec3 }) => {
    at = { ...packet.player_position };
  });
  client.on('move_player', (packet: { runtime_id: number; position: Vec3 }) => {
    if (BigInt(packet.runtime_id) !== self()) return;
    at = { ...packet.position };
    corrections += 1;
  });
  client.on('correct_player_move_prediction', (packet: { position: Vec3 }) => {
    at = { ...packet.position };
    corrections += 1;
  });
  const startGame = (client as unknown as { startGameData?: { player_position?: Vec3 } }).startGameData;
  if (startGame?.player_position) at = { ...startGame.player_position };
  return {
    stepBy: (dx) => {
      if (!at) throw new Error('the client does not know its position yet');
      const to = { x: at.x + dx, y: at.y, z: at.z };
      tick += 1n;
      client.write('player_auth_input', {
        pitch: 0,
        yaw: 0,
        position: to,
        move_vector: { x: 0, z: 0 },
        head_yaw: 0,
        input_data: { _value: 0n },
        input_mode: 'mouse',
        play_mode: 'normal',
        interaction_model: 'crosshair',
        interact_rotation: { x: 0, z: 0 },
        tick,
        delta: { x: dx, y: 0, z: 0 },
        analogue_move_vector: { x: 0, z: 0 },
        camera_orientation: { x: 0, y: 0, z: 1 },
        raw_move_vector: { x: 0, z: 0 },
      });
      at = to;
    },
    get corrections() {
      return corrections;
    },
    x: () => at?.x ?? Number.NaN,
  };
}
