import { EventEmitter } from 'eventemitter3';
import type { Punishment } from '../../contract/schemas.js';

interface FeedEvents {
  /** A punishment was created or changed; `sequence` is its change's number in the network's log. */
  'punishment:changed': (networkId: number, punishment: Punishment, sequence: number) => void;
}

/** In-process fan-out of punishment changes to the stream connections of their network. */
export class PunishmentFeed extends EventEmitter<FeedEvents> {
  publish(networkId: number, punishment: Punishment, sequence: number): void {
    this.emit('punishment:changed', networkId, punishment, sequence);
  }
}
