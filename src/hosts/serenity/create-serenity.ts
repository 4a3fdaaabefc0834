import { type DimensionProperties, InternalProvider, Serenity, type WorldProperties } from '@serenityjs/core';
import { DimensionType } from '@serenityjs/protocol';
import type { ServerSettings } from '../server-settings.js';

/** Keeps the world in memory; players start afresh at each join (the base provider throws on writePlayer). */
export class MemoryWorldProvider extends InternalProvider {
  override writePlayer(): void {}
}

export interface SerenityOptions {
  /** The UDP port, already resolved (never 0). */
  port: number;
  settings: ServerSettings;
}

/**
 * A SerenityJS server for these settings, not yet listening, with one in-memory world. Nothing is
 * written to the working directory (no permissions.json, no resource_packs/), and SerenityJS's
 * console is closed at once: the host reads the console itself.
 */
export async function createSerenity({ port, settings }: SerenityOptions): Promise<Serenity> {
  const serenity = new Serenity({
    path: null,
    serenity: {
      permissions: null,
      resources: { path: undefined, mustAccept: false },
      offlineMode: !settings.onlineMode,
    },
    raknet: { address: settings.host, port, maxConnections: settings.maxPlayers, message: settings.motd },
  });
  serenity.console.close();
  serenity.registerProvider(MemoryWorldProvider, { path: '' });
  const overworld: Partial<DimensionProperties> = {
    identifier: 'overworld',
    type: DimensionType.Overworld,
    generator: settings.generation === 'void' ? 'void' : 'superflat',
    viewDistance: settings.viewDistance,
    simulationDistance: settings.viewDistance,
  };
  const properties: Partial<WorldProperties> = { identifier: 'default', dimensions: [overworld] };
  const world = await MemoryWorldProvider.create(serenity, { path: '' }, properties as WorldProperties);
  serenity.registerWorld(world);
  return serenity;
}
