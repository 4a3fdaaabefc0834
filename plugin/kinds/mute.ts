import { expiresAt } from '../cache/cached-punishment.js';
import { recordEnforced } from '../enforcement/first-enforcement.js';
import type { Kind } from './kind.js';
import { tellTarget, textFor } from './notices.js';

/** A mute: chat and blocked commands cancelled (chat-guard reads the index), notice when it starts and ends. */
export const muteKind: Kind = {
  action: 'mute',
  indexedAs: 'mute',
  messages: { broadcast: 'broadcast.mute', notice: 'notice.mute' },
  arrived(step) {
    if (step.target && step.now < expiresAt(step.next)) {
      step.enforce((player) => player.sendMessage(step.text('notice.mute', player)));
    }
  },
  atJoin(context, punishment, now) {
    if (now >= expiresAt(punishment)) return undefined;
    recordEnforced(context, punishment);
    return textFor(context, 'notice.mute', punishment, now);
  },
  lifted(context, punishment, now) {
    tellTarget(context, punishment, textFor(context, 'notice.mute-lifted', punishment, now));
  },
};
