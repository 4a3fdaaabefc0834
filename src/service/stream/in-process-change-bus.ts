import type { PunishmentStorePort } from '../store/ports/punishments.js';
import type { StreamChangeStorePort } from '../store/ports/stream-changes.js';
import type { PunishmentRenderer } from '../store/punishment-renderer.js';
import type { ChangeBus } from './change-bus.js';
import type { PunishmentFeed } from './punishment-feed.js';

/** What the in-process bus reads a change back from. */
export interface ChangeSource {
  punishments: Pick<PunishmentStorePort, 'find'>;
  streamChanges: Pick<StreamChangeStorePort, 'sequenceOf'>;
}

/** One instance: the writer publishes the change straight into its own feed. */
export class InProcessChangeBus implements ChangeBus {
  constructor(
    private readonly stores: ChangeSource,
    private readonly render: Pick<PunishmentRenderer, 'one'>,
    private readonly feed: PunishmentFeed,
  ) {}

  async changed(networkId: number, punishmentId: string): Promise<void> {
    // Seeding and tests without a stream client skip the read-back.
    if (this.feed.listenerCount('punishment:changed') === 0) return;
    const row = await this.stores.punishments.find(networkId, punishmentId);
    const punishment = row && this.render.one(row);
    const sequence = await this.stores.streamChanges.sequenceOf(networkId, punishmentId);
    if (punishment && sequence !== undefined) this.feed.publish(networkId, punishment, sequence);
  }

  async close(): Promise<void> {}
}
