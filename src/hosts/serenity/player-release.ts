import type { Chunk, Serenity, Player as SerenityPlayer } from '@serenityjs/core';
import { ChunkCoords } from '@serenityjs/protocol';

/** The field of EntityLevelStorage (private in SerenityJS's types) naming whose storage it is. */
interface OwnedStorage {
  entity?: unknown;
}

/** The loaded chunk holding each dimension's spawn position; nothing is loaded or created. */
function spawnChunks(player: SerenityPlayer): Chunk[] {
  const { world } = player;
  const chunks: Chunk[] = [];
  for (const dimension of world.getDimensions()) {
    const { x, z } = dimension.spawnPosition;
    const hash = ChunkCoords.hash(new ChunkCoords(Math.floor(x) >> 4, Math.floor(z) >> 4));
    const chunk = world.provider.chunks.get(dimension)?.get(hash);
    if (chunk) chunks.push(chunk);
  }
  return chunks;
}

/**
 * SerenityJS 0.8.21's Entity constructor gives every new player a first entity storage and files
 * it in the spawn chunk; the Player constructor then replaces the storage, and takes the first one
 * out of the chunk only when both got the same unique id, which holds the time in 16 ms steps.
 * Otherwise the first storage, and through it the whole player (connection, RakNet resend
 * buffers), stays in the chunk for the server's life. Removes such storages of `player`.
 */
export function forgetStrayStorage(player: SerenityPlayer): void {
  for (const chunk of spawnChunks(player)) {
    for (const [uniqueId, storage] of chunk.getAllEntityStorages()) {
      if ((storage as OwnedStorage).entity === player && storage !== player.getStorage()) {
        chunk.setEntityStorage(uniqueId, null, false);
      }
    }
  }
}

/**
 * SerenityJS keeps one permission member per UUID that ever joined, searched linearly at each
 * join. A departed player's member that holds no permission is what SerenityJS would create again
 * at their next join: it is dropped (a member holding permissions, such as an `/op`, is kept).
 */
export function forgetEmptyPermissionMember(serenity: Serenity, player: SerenityPlayer): void {
  const { members } = serenity.permissions;
  const index = members.indexOf(player.permissions);
  if (index < 0) return;
  const member = members[index]!;
  if (member.permissions.length > 0 || (member.player !== null && member.player !== player)) return;
  member.player = null;
  members.splice(index, 1);
}
