import type { Kind } from './kind.js';
import { recordNoticeShown, textFor } from './notices.js';

/** A warning: stored and shown to the target once (at once when online, else at the next join). */
export const warnKind: Kind = {
  action: 'warn',
  indexedAs: undefined,
  messages: { broadcast: 'broadcast.warn', notice: 'notice.warning' },
  arrived(step) {
    if (step.target) step.notify(step.text('notice.warning'));
  },
  atJoin(context, punishment, now) {
    recordNoticeShown(context, punishment, now);
    return textFor(context, 'notice.warning', punishment, now);
  },
  lifted: () => {},
};
