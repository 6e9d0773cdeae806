// Feeds campaigns to the mail queue (docs/newsletter.md "Sending a post"), inside `postbox serve`, one at a time,
// oldest first: each recipient's mail goes into the queue at `send_per_minute`, and the ledger (campaign-ledger.ts)
// tells the feeder how it left (sent, failed, or skipped because the address unsubscribed while it waited).
//
// Nobody is mailed twice after a crash: a recipient is handed to the queue only after every earlier one, and
// the ledger journals a message before the queue lets go of it. So on a restart every recipient handed over is
// either still in the queue or in the journal, and the campaign goes on after the last of them. At most the mail
// in flight at the crash is sent again (the queue is at least once).
//
// With several replicas (a store with leases: PostgreSQL), a campaign is sent by the one replica that holds its
// lease, renewed while it runs; the others wait. When that replica dies, another takes the lease once it lapsed
// and goes on the same way, after the last recipient the journal or the queue knows of.
//
// A campaign whose recipients complain or bounce hard too often pauses itself (campaign-pause.ts; docs/bounces.md
// "Suppression"): a `paused_at` line says why, the feeder leaves it for the next campaign, and a `resumed_at`
// line (/admin "Resume") lets it go on, its rates counted afresh from there.
import type { NewsletterList } from '../../config/config.js';
import type { Logger } from '../../kit/log.js';
import type { Clock, MailMessage, Timers } from '../../ports.js';
import type { OutgoingMessage, QueuedMessage, QueueOutcome } from '../../queue/outgoing.js';
import { safeReason } from '../../kit/safe-reason.js';
import { UnavailableError } from '../../kit/unavailable-error.js';
import { countStates, foldJournal, RecipientState, resumePoint, stateOf, type BounceCounts, type CampaignRequest } from './campaign.js';
import { createCampaignChoice } from './campaign-choice.js';
import type { CampaignLedger } from './campaign-ledger.js';
import { PAUSE_AFTER_SENT, pauseReasonOf } from './campaign-pause.js';
import type { CampaignBody, CampaignStore } from './campaign-store.js';

export interface CampaignFeederDeps {
  store: CampaignStore;
  /** Who wants a campaign's mail, and how each one left the queue. */
  ledger: Pick<CampaignLedger, 'isRecipientWanted' | 'follow'>;
  /** Hands messages to the mail queue; resolves once they are durably queued. */
  enqueue(messages: readonly OutgoingMessage[]): Promise<void>;
  /** The queue's pending mails of `campaign` now (with PostgreSQL, every replica's). */
  pendingMessages(campaign: string): Promise<readonly QueuedMessage[]>;
  /** The list a campaign names (CampaignRequest.form: a form's path or a list id). */
  listOf(key: string): NewsletterList | undefined;
  /** The mail of one recipient: the body with their unsubscribe link and list headers. */
  mailFor(list: NewsletterList, email: string, body: CampaignBody, request: CampaignRequest): Promise<MailMessage>;
  /** Mails per minute handed to the queue; 0 for no limit. */
  sendPerMinute: number;
  /** The time the journal's lines carry. */
  clock: Clock;
  /** The pace, the polls and the lease renewals. */
  timers: Timers;
  logger: Logger;
  /** How often data_dir/campaigns is looked at for a new campaign (one made by `postbox newsletter send`); 2 s unless given. */
  pollIntervalMs?: number;
  /** How often the lease of the running campaign is renewed (stores with leases); 10 s unless given. */
  leaseRenewMs?: number;
  /**
   * The hard bounces and complaints of a campaign's recipients so far (docs/bounces.md "Suppression"), each
   * recipient counted once; without it a campaign never pauses itself.
   */
  bounceTally?(campaign: string): Promise<Omit<BounceCounts, 'sent'>>;
  /**
   * Whether campaign `id` is held by a pause outside it (its automation paused, docs/newsletter.md "Automations"),
   * asked before each batch: the campaign stops at once, and a `paused_at` line in its journal keeps it waiting.
   */
  isHeld?(campaign: string): Promise<boolean>;
}

export interface CampaignFeeder {
  /** Resumes an unfinished campaign, if any, and looks for new ones from now on. */
  start(): void;
  /** Looks for a new campaign now (one /admin just made). */
  wake(): void;
  /** Stops handing mails to the queue; what is queued stays there, and the campaign goes on at the next start. */
  stop(): Promise<void>;
  /**
   * Lets a campaign that paused itself go on, its bounce rates counted from now; `by` names who asked, for the
   * journal and the log. `not_paused` for a campaign that is not paused, `unknown` when there is no such campaign.
   */
  resume(id: string, by: string): Promise<'resumed' | 'not_paused' | 'unknown'>;
}

/** Campaign mails in the queue at once, at most: a mail server that is down holds up a campaign, not floods the queue. */
const WINDOW = 16;
/** After a failed write to the queue, the next try waits this long. */
const WRITE_RETRY_MS = 5_000;
/** A third of the PostgreSQL store's 30-second lease: two renewals may fail before it lapses. */
const LEASE_RENEW_MS = 10_000;
/** The recipient state an outcome the journal holds stands for, back to the outcome. */
const OUTCOME_OF_STATE: Partial<Record<number, QueueOutcome>> = { [RecipientState.sent]: 'sent', [RecipientState.failed]: 'failed', [RecipientState.skipped]: 'skipped' };

interface Active {
  request: CampaignRequest;
  /** Recipient states once loaded; outcomes that arrive while loading wait in `early`. */
  states?: Uint8Array;
  early: Array<{ index: number; outcome: QueueOutcome }>;
  queued: number;
  /** Recipients whose mail was sent, once loaded. */
  sent: number;
  /** The counts of the last resume: the bounce rates count from there. */
  since: BounceCounts;
}

export function createCampaignFeeder(deps: CampaignFeederDeps): CampaignFeeder {
  const { store, ledger, timers, logger } = deps;
  const intervalMs = deps.sendPerMinute > 0 ? 60_000 / deps.sendPerMinute : 0;
  let running: Promise<void> | undefined;
  let stopping = false;
  let poller: unknown;
  let signal: (() => void) | undefined;
  let pause: unknown;
  /** Set when the lease of the running campaign could not be renewed: this process stops sending it. */
  let leaseLost = false;
  const choice = createCampaignChoice({ store, timers, logger });

  /** Resolves at the next outcome, wake or stop (false), or after `ms` without one (true). */
  const waitForChange = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const done = (timedOut: boolean) => {
        timers.clearTimeout(pause);
        signal = undefined;
        resolve(timedOut);
      };
      signal = () => done(false);
      pause = timers.setTimeout(() => done(true), ms);
    });
  const notify = () => signal?.();

  function apply(campaign: Active, index: number, outcome: QueueOutcome): void {
    const states = campaign.states!;
    if (index < 0 || index >= states.length) return;
    if (states[index] === RecipientState.queued) campaign.queued -= 1;
    if (states[index] === RecipientState.sent) campaign.sent -= 1;
    states[index] = stateOf(outcome);
    if (states[index] === RecipientState.sent) campaign.sent += 1;
    notify();
  }

  /**
   * Whether `campaign` must pause now (campaign-pause.ts): then its `paused_at` line is written first. The tally is
   * asked for only once enough mails were sent since the last resume.
   */
  async function pausesNow(campaign: Active): Promise<boolean> {
    if (!deps.bounceTally || campaign.sent - campaign.since.sent < PAUSE_AFTER_SENT) return false;
    const { id, form } = campaign.request;
    const counts: BounceCounts = { sent: campaign.sent, ...(await deps.bounceTally(id)) };
    const reason = pauseReasonOf(counts, campaign.since);
    if (reason === undefined) return false;
    await store.append(id, { paused_at: new Date(deps.clock()).toISOString(), reason, ...counts });
    logger.warn({ event: 'campaign_paused', campaign: id, form, ...counts }, `campaign paused: ${reason}`);
    return true;
  }

  /** Runs `request`, following its outcomes in the ledger, until it is finished, stopped, its lease lost or it paused itself (`paused`). */
  async function run(request: CampaignRequest): Promise<'paused' | undefined> {
    const campaign: Active = { request, early: [], queued: 0, sent: 0, since: { sent: 0, hard: 0, complaint: 0 } };
    const unfollow = ledger.follow(request.id, (index, outcome) => {
      if (campaign.states) apply(campaign, index, outcome);
      else campaign.early.push({ index, outcome });
    });
    try {
      return await runFollowed(campaign);
    } finally {
      unfollow();
    }
  }

  async function runFollowed(campaign: Active): Promise<'paused' | undefined> {
    const { request } = campaign;
    // The queue first, then the journal: a mail that leaves the queue in between is in the journal.
    const inQueue = (await deps.pendingMessages(request.id)).flatMap(({ message }) =>
      message.channel === 'mail' && message.recipient?.campaign === request.id ? [message.recipient.index] : [],
    );
    const [recipients, body, lines] = await Promise.all([store.readRecipients(request.id), store.readBody(request.id), store.readJournal(request.id)]);
    const { states, paused, since } = foldJournal(lines, recipients.length);
    for (const index of inQueue) {
      if (index < states.length && states[index] === RecipientState.none) states[index] = RecipientState.queued;
    }
    campaign.states = states;
    campaign.queued = states.reduce((count, state) => count + (state === RecipientState.queued ? 1 : 0), 0);
    campaign.sent = states.reduce((count, state) => count + (state === RecipientState.sent ? 1 : 0), 0);
    campaign.since = since;
    for (const { index, outcome } of campaign.early.splice(0)) apply(campaign, index, outcome);
    const list = deps.listOf(request.form);
    if (!list) {
      // The list left the configuration: the campaign waits for it (a restart with the list back) instead of
      // skipping everyone still to be mailed.
      choice.setAside(request, 'form_missing');
      return undefined;
    }
    // Paused since it was chosen (in another process): it waits for "Resume".
    if (paused) return 'paused';
    let next = resumePoint(states);
    // Below the resume point, a recipient neither journaled nor queued was dropped from the queue while the
    // service was stopped (`postbox queue drop`): it was not mailed.
    for (let index = 0; index < next; index += 1) {
      if (states[index] !== RecipientState.none) continue;
      states[index] = RecipientState.failed;
      await store.append(request.id, { r: index, s: 'failed' });
    }
    await store.append(request.id, { started_at: new Date(deps.clock()).toISOString() });
    logger.info({ event: 'campaign_started', campaign: request.id, form: request.form, post: request.slug, lang: request.lang, from: next, total: recipients.length }, 'campaign sending');
    let due = timers.now();
    while (next < recipients.length && !stopping && !leaseLost) {
      // Without a limit the window is refilled once half of it left: a batch of 8 or more shares one queue write.
      if (campaign.queued >= WINDOW || (intervalMs === 0 && campaign.queued > WINDOW / 2)) {
        // Two quiet seconds: look whether a mail left the queue unreported (removed by `postbox queue drop`).
        if (await waitForChange(2_000)) await reconcile(campaign);
        continue;
      }
      const wait = due - timers.now();
      if (wait > 0) {
        await waitForChange(wait);
        continue;
      }
      if ((await deps.isHeld?.(request.id)) || (await pausesNow(campaign))) return 'paused';
      // Without a limit a batch fills the window in one queue write; with one, a mail at a time.
      const room = intervalMs === 0 ? WINDOW - campaign.queued : 1;
      const { batch, skipped, end } = await nextBatch(request, list, body, recipients, next, room);
      if (batch.length > 0) {
        try {
          for (const message of batch) if (message.channel === 'mail') states[message.recipient!.index] = RecipientState.queued;
          campaign.queued += batch.length;
          await deps.enqueue(batch);
        } catch (error) {
          for (const message of batch) if (message.channel === 'mail') states[message.recipient!.index] = RecipientState.none;
          campaign.queued -= batch.length;
          logger.error({ event: 'campaign_queue_failed', campaign: request.id, reason: safeReason(error) }, 'campaign mails could not be queued; trying again');
          await waitForChange(WRITE_RETRY_MS);
          continue;
        }
        due = Math.max(due, timers.now() - intervalMs) + intervalMs * batch.length;
      }
      // The skipped lines only once the batch is queued: a line past a recipient not yet queued would move the
      // resume point over it, and a crash in between would leave that recipient unmailed.
      for (const index of skipped) {
        states[index] = RecipientState.skipped;
        await store.append(request.id, { r: index, s: 'skipped' });
      }
      next = end;
    }
    await awaitQueued(campaign);
    if (stopping || leaseLost) return undefined;
    await store.append(request.id, { finished_at: new Date(deps.clock()).toISOString() });
    choice.finished(request.id);
    const counts = countStates(states, { started: true, finished: true });
    logger.info({ event: 'campaign_finished', campaign: request.id, form: request.form, sent: counts.sent, failed: counts.failed, skipped: counts.skipped }, 'campaign finished');
    return undefined;
  }

  /**
   * The mails of the recipients from `from` on, until `room` of them are still wanted; those no longer wanted are
   * `skipped`, and `end` is where the next batch starts. One recipient at a time: the checks share the store's
   * connections with the queue's sends, which they must not hold up.
   */
  async function nextBatch(request: CampaignRequest, list: NewsletterList, body: CampaignBody, recipients: readonly string[], from: number, room: number) {
    const batch: OutgoingMessage[] = [];
    const skipped: number[] = [];
    let end = from;
    while (end < recipients.length && batch.length < room) {
      const index = end;
      const email = recipients[index]!;
      end += 1;
      if (!(await ledger.isRecipientWanted(list, email))) skipped.push(index);
      else batch.push({ channel: 'mail', form: request.form, kind: 'newsletter', mail: await deps.mailFor(list, email, body, request), recipient: { campaign: request.id, index } });
    }
    return { batch, skipped, end };
  }

  /** Waits until every mail of `campaign` left the queue. */
  async function awaitQueued(campaign: Active): Promise<void> {
    while (campaign.queued > 0 && !stopping && !leaseLost) {
      if (await waitForChange(2_000)) await reconcile(campaign);
    }
  }

  /**
   * A mail the feeder handed over that the queue no longer holds: as the journal says when another process's
   * queue worker reported it (a queue shared by replicas), else removed unreported: failed.
   */
  async function reconcile(campaign: Active): Promise<void> {
    const states = campaign.states!;
    const inQueue = new Set(
      (await deps.pendingMessages(campaign.request.id)).flatMap(({ message }) => (message.channel === 'mail' && message.recipient?.campaign === campaign.request.id ? [message.recipient.index] : [])),
    );
    const gone = [...states.keys()].filter((index) => states[index] === RecipientState.queued && !inQueue.has(index));
    if (gone.length === 0) return;
    // Read after the queue: the queue lets go of a mail only once its journal line is written.
    const journaled = foldJournal(await store.readJournal(campaign.request.id), states.length).states;
    for (const index of gone) {
      if (states[index] !== RecipientState.queued) continue;
      const outcome = OUTCOME_OF_STATE[journaled[index]!];
      apply(campaign, index, outcome ?? 'failed');
      if (!outcome) await store.append(campaign.request.id, { r: index, s: 'failed' });
    }
  }

  /** Renews the lease of campaign `id` while it runs; once a renewal fails, this process stops sending it. */
  function keepLease(id: string): () => void {
    leaseLost = false;
    const lease = store.lease;
    if (!lease) return () => undefined;
    let timer: unknown;
    const renew = () => {
      void lease(id)
        .catch(() => false)
        .then((held) => {
          if (held || leaseLost) return;
          leaseLost = true;
          logger.warn({ event: 'campaign_lease_lost', campaign: id }, 'the campaign lease could not be renewed: this process stops sending it; the holder of the next lease goes on');
          notify();
        });
      timer = timers.setTimeout(renew, deps.leaseRenewMs ?? LEASE_RENEW_MS);
    };
    timer = timers.setTimeout(renew, deps.leaseRenewMs ?? LEASE_RENEW_MS);
    return () => timers.clearTimeout(timer);
  }

  /** Runs the oldest unfinished campaign, then looks again; one run at a time. */
  function lookForWork(): void {
    if (running || stopping) return;
    running = (async () => {
      for (;;) {
        const request = await choice.next();
        if (!request || stopping) return;
        // Another replica sends the oldest unfinished campaign: this one waits, so campaigns still go one at a time.
        if (store.lease && !(await store.lease(request.id))) return;
        const endLease = keepLease(request.id);
        let outcome: 'paused' | undefined;
        try {
          outcome = await run(request);
        } catch (error) {
          // The database out of reach: the poller tries again; it is no reason to set the campaign aside.
          if (error instanceof UnavailableError) throw error;
          // One unreadable campaign (a file edited or lost) must not hold up the others.
          choice.setAside(request, 'unreadable', error);
        } finally {
          endLease();
          // Stopping or paused: another replica takes the campaign over (once resumed) now rather than once the lease lapsed.
          if (stopping || outcome === 'paused') await store.release?.(request.id).catch(() => undefined);
        }
        if (leaseLost) return;
      }
    })()
      .catch((error: unknown) => {
        // PostgreSQL out of reach was logged once by the state (postgres_unavailable); every poll would repeat it.
        if (error instanceof UnavailableError) return;
        logger.error({ event: 'campaign_failed', reason: safeReason(error) }, 'a campaign could not be read or written; it is tried again');
      })
      .finally(() => {
        running = undefined;
      });
  }

  /** Looks for work now, then every poll interval until stopped. */
  const poll = () => {
    lookForWork();
    if (!stopping) poller = timers.setTimeout(poll, deps.pollIntervalMs ?? 2_000);
  };

  return {
    start: poll,
    wake: lookForWork,
    async stop() {
      stopping = true;
      if (poller !== undefined) timers.clearTimeout(poller);
      notify();
      await running;
    },
    async resume(id, by) {
      const request = await store.read(id);
      if (!request) return 'unknown';
      const folded = foldJournal(await store.readJournal(id), request.recipients);
      if (!folded.paused) return 'not_paused';
      const tally = (await deps.bounceTally?.(id)) ?? { hard: 0, complaint: 0 };
      const sent = countStates(folded.states, folded).sent;
      await store.append(id, { resumed_at: new Date(deps.clock()).toISOString(), by, sent, ...tally });
      choice.resumed(id);
      logger.info({ event: 'campaign_resumed', campaign: id, form: request.form, user: by }, 'campaign resumed');
      lookForWork();
      return 'resumed';
    },
  };
}
