import { queuePunishmentAck } from '../acks/acknowledgements.js';
import type { Kind } from './kind.js';
import { recordNoticeShown, textFor } from './notices.js';

/** A kick: carried out once on an online target; an offline target only hears of it at the next join. */
export const kickKind: Kind = {
  action: 'kick',
  indexedAs: undefined,
  messages: { broadcast: 'broadcast.kick', notice: 'notice.kick' },
  arrived(step) {
    const { next, now } = step;
    if (step.startedAtService) {
      // Already carried out (here before a restart, or on another server): never kick twice.
      next.acknowledged = true;
      next.notified = true;
    } else if (step.target) {
      step.enforce((player) => player.kick(step.text('kick.screen', player)));
    } else {
      next.startedAt = now;
      next.acknowledged = true;
      step.queue(() =>
        queuePunishmentAck(step.context.outbox, next, {
          executedAt: now,
          success: false,
          errorMessage: 'player not online',
        }),
      );
    }
  },
  atJoin(context, punishment, now) {
    recordNoticeShown(context, punishment, now);
    return textFor(context, 'notice.kick', punishment, now);
  },
  lifted: () => {},
};
