// The newsletter double opt-in as the forms service sees it (docs/newsletter.md). Outcomes only: the form
// routes choose the answer, page and status.
import type { NewsletterAutomation, NewsletterForm, NewsletterList, SubscriberLogRef } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import type { NewsletterStore } from './newsletter-store.js';
import type { Preferences } from './preferences.js';
import type { Subscriber } from './subscriber-events.js';
import type { AutomationClaim, MailKind } from '../queue/outgoing.js';
import type { Clock, MailList, MailMessage, RandomBytes, Timers } from '../ports.js';

/** What a signup came to. `ok` and `duplicate` must be answered identically. */
/** `unavailable`: a shared store (the mail queue in PostgreSQL) could not be reached; nothing was kept (503). */
export type SignupOutcome = 'ok' | 'duplicate' | 'storage_failed' | 'send_failed' | 'unavailable';

/** What a confirmation came to: on the list, a link unknown, used or expired, or a line that could not be saved. */
export type ConfirmOutcome = 'confirmed' | 'gone' | 'not_saved';

/** What an unsubscribe POST came to; `unsubscribed` also when the address was not (or no longer) on the list. */
export type UnsubscribeOutcome = 'unsubscribed' | 'bad_token' | 'not_saved';

/** What an admin's "Remove" came to; `not_subscribed` when the address was not (or no longer) on the list. */
export type RemoveOutcome = 'removed' | 'not_subscribed' | 'not_saved';

/** Whether a confirmation link can still be redeemed (for the page with the button, which redeems nothing). */
export type ConfirmState = 'live' | 'gone';

/** Methods that need a shared store (PostgreSQL) reject with UnavailableError while it cannot be reached. */
export interface Newsletter {
  /**
   * Records a pending signup for `email` (already validated) on the lists ticked (ids, docs/newsletter.md "Lists";
   * none or none the form offers: its own) and mails the link; counts its own metrics. `lang`: the language the
   * sign-up gave, kept on the subscription with the form's path as its source (docs/newsletter.md "Subscriber attributes").
   */
  signup(form: NewsletterForm, email: string, ticked?: readonly string[], lang?: string): Promise<SignupOutcome>;
  /** Redeems `token` (undefined when the query had none); counts its own metrics. */
  confirm(form: NewsletterForm, token: string | undefined): Promise<ConfirmOutcome>;
  /** Whether `token` is a live confirmation token of `form`; changes nothing. */
  confirmState(form: NewsletterForm, token: string | undefined): Promise<ConfirmState>;
  /** Whether `token` is a valid unsubscribe token of `form`; changes nothing. */
  isUnsubscribeToken(form: NewsletterForm, token: string | undefined): Promise<boolean>;
  /** Takes the address of `token` off the list of `form`. */
  unsubscribe(form: NewsletterForm, token: string | undefined): Promise<UnsubscribeOutcome>;
  /**
   * Takes `email` off the list of `form` for the owner (/admin "Remove", `by` "admin") or after a complaint about
   * one of its mails (`by` "complaint", docs/bounces.md "Suppression"): the same `unsubscribed` line as a link.
   */
  remove(form: NewsletterForm, email: string, by?: 'admin' | 'complaint'): Promise<RemoveOutcome>;
  /** The unsubscribe link for `email`, for the text of every mail to a subscriber. */
  unsubscribeLinkFor(form: NewsletterForm, email: string): Promise<string>;
  /** The `list` field (List-Id, List-Unsubscribe) of every mail to a subscriber. */
  listHeadersFor(form: NewsletterForm, email: string): Promise<MailList>;
  /** The same for a mail of `list`: a list without a form unsubscribes on the preference page (docs/newsletter.md "Leaving the list"). */
  listHeadersOf(list: NewsletterList, email: string): Promise<MailList>;
  /** Whether `email` is on the list of `form` now (a campaign skips an address that left it); asks the store each time. */
  isSubscribed(form: SubscriberLogRef, email: string): Promise<boolean>;
  /** The current subscribers of `form`, in the order of their last subscription (the list a campaign goes to). */
  listSubscribers(form: SubscriberLogRef): Promise<Subscriber[]>;
  /** The preference page's views and changes, and its link for every mail to a subscriber (docs/newsletter.md "Preferences"). */
  preferences: Preferences;
  /** Releases timers and files. */
  close(): Promise<void>;
}

/** The counters the newsletter adds to, by form path. */
export type NewsletterCounter = 'confirmation_failed' | 'confirmation_sent' | 'confirmed' | 'duplicate_signup' | 'persist_failed' | 'send_failed' | 'sent';

/** Where the newsletter counts its events (the forms' metrics). */
export interface NewsletterCounters {
  count(formPath: string, counter: NewsletterCounter): void;
}

export interface NewsletterDeps {
  /** Every form of the configuration; the newsletter ones are served. */
  forms: readonly NewsletterForm[];
  /** Every list (`config.newsletter.lists`); the forms' own lists alone when left out. */
  lists?: readonly NewsletterList[];
  /** `config.newsletter.automations`: the welcome ones are mailed when an address confirms; none when left out. */
  automations?: readonly NewsletterAutomation[];
  /** `config.newsletter.preferences_url`; made from the first form's confirmation link when left out. */
  preferencesUrl?: string;
  /** `mail.from`. */
  from: string;
  /** `[site] base_url`: where an automation's mail links back to, and its relative links resolve. */
  siteUrl?: string;
  /** The name the confirmation mail gives the site. */
  siteNameFor(form: NewsletterForm): string;
  /**
   * Hands a mail to delivery: `sent` when its server accepted it now, `queued` when it waits durably in the mail
   * queue (which then counts it), `suppressed` when its address is on the suppression list and nothing was sent
   * (docs/bounces.md "Suppression"); rejects when none of these happened. A welcome mail comes with its ledger
   * `claim`, queued with it: the queue sends it only while that claim is the pair's (settleAutomationClaim).
   */
  sendMail(formPath: string, kind: MailKind, mail: MailMessage, claim?: AutomationClaim): Promise<'sent' | 'queued' | 'suppressed'>;
  /** The forms' counters (/metrics): the newsletter counts its own events there. */
  metrics: NewsletterCounters;
  logger: Logger;
  clock: Clock;
  randomBytes: RandomBytes;
  /** Where the records are kept: the backend's (data_dir files or PostgreSQL). */
  store: NewsletterStore;
  /** How often the due steps of welcome automations are looked for; a minute unless given. */
  dripIntervalMs?: number;
  /** How often expired pending records are purged; 10 minutes unless given. */
  purgeIntervalMs?: number;
  /** When the purge runs. */
  timers: Timers;
  /**
   * Send the confirmation mail before answering a signup, and answer `send_failed` when it could not be sent: when
   * mail is sent at once (`[mail] queue = false`). Otherwise it is handed over after the answer (docs/newsletter.md "Duplicates").
   */
  mailBeforeAnswer?: boolean;
}
