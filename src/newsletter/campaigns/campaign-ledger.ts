// What the mail queue asks of campaigns (docs/newsletter.md "Sending a post"), without the queue itself: whether a
// queued campaign mail is still wanted (its address has not left the list, nor been suppressed, since it was
// queued), and the journal line of a campaign mail that left the queue, written before the queue forgets it. The
// feeder (campaign-feeder.ts), built on the queue, follows the outcomes of the campaign it runs through here.
//
// Nobody is mailed twice after a crash: the queue awaits `settled` before it lets go of a message
// (QueueWorkerDeps.settled), so every recipient the feeder handed over is either still queued or journaled.
import type { NewsletterList, SubscriberLogRef } from '../../config/config.js';
import type { Timers } from '../../ports.js';
import type { OutgoingMessage, QueuedMessage, QueueOutcome } from '../../queue/outgoing.js';
import type { CampaignStore } from './campaign-store.js';

/** Tries of a journal line before its failure is reported (the queue logs it and goes on). */
const JOURNAL_ATTEMPTS = 3;

export interface CampaignLedgerDeps {
  store: Pick<CampaignStore, 'append'>;
  /** The list a campaign mail names (OutgoingMessage.form: a form's path or a list id). */
  listOf(key: string): NewsletterList | undefined;
  isSubscribed(log: SubscriberLogRef, email: string): Promise<boolean>;
  /**
   * Whether the suppression list holds back a campaign mail of the list keyed `form` to `email` (docs/bounces.md
   * "Suppression"); nothing is held back without it.
   */
  isHeldBack?(email: string, form: string): Promise<boolean>;
  /** The pauses between tries of a journal line. */
  timers: Timers;
}

/** Told each outcome of the followed campaign once it is journaled: the recipient's index and how its mail left. */
export type OutcomeListener = (index: number, outcome: QueueOutcome) => void;

export interface CampaignLedger {
  /** Whether a queued campaign mail is still wanted: its address has not left the list since it was queued. */
  isWanted(message: OutgoingMessage): Promise<boolean>;
  /** Whether `email` gets the campaign mails of `list` now: on it and not held back by the suppression list. */
  isRecipientWanted(list: NewsletterList, email: string): Promise<boolean>;
  /** The queue's hook: journals how a campaign mail left the queue, before the queue forgets it. */
  settled(message: QueuedMessage, outcome: QueueOutcome): Promise<void>;
  /** Tells `listener` every outcome of campaign `id` journaled from now on, until the returned function is called. */
  follow(id: string, listener: OutcomeListener): () => void;
}

export function createCampaignLedger(deps: CampaignLedgerDeps): CampaignLedger {
  const { store, timers } = deps;
  const followers = new Map<string, OutcomeListener>();
  const pause = (ms: number) => new Promise<void>((resolve) => timers.setTimeout(resolve, ms));

  async function isRecipientWanted(list: NewsletterList, email: string): Promise<boolean> {
    // A suppressed address is skipped like one that left the list. Both are asked at once: this runs before every
    // campaign mail is sent, one at a time, so each round trip to the store is one more on every mail's way.
    const [subscribed, heldBack] = await Promise.all([deps.isSubscribed(list.log, email), deps.isHeldBack?.(email, list.log.path)]);
    return subscribed && !heldBack;
  }

  return {
    isRecipientWanted,
    async isWanted(message) {
      if (message.channel !== 'mail' || !message.recipient) return true;
      const list = deps.listOf(message.form);
      return list !== undefined && (await isRecipientWanted(list, message.mail.to));
    },
    async settled(queued, outcome) {
      const { message } = queued;
      if (message.channel !== 'mail' || !message.recipient) return;
      const { campaign: id, index } = message.recipient;
      // The line must be on disk before the queue forgets the mail: a short disk hiccup is tried again.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await store.append(id, { r: index, s: outcome });
          break;
        } catch (error) {
          if (attempt === JOURNAL_ATTEMPTS) throw error;
          await pause(100 * attempt);
        }
      }
      // Only then does the feeder count it: the campaign's finished line never goes before the last outcome's (on
      // PostgreSQL two inserts in flight at once may commit in either order).
      followers.get(id)?.(index, outcome);
    },
    follow(id, listener) {
      followers.set(id, listener);
      return () => {
        if (followers.get(id) === listener) followers.delete(id);
      };
    },
  };
}
