// The newsletter double opt-in (docs/newsletter.md "The flow"): signup stores a pending record durably, answers,
// then mails the link; confirm redeems the record and puts the address on the list (newsletter-store.ts: files or
// rows). Tokens and addresses never reach a log: lines carry the form path, an event name and at most an error code.
//
// A signup's answer must not tell whether the address was new (docs/newsletter.md "Duplicates"), by its body nor
// by its time: every signup takes the same steps before it is answered, whatever the address: both look-ups, then
// one durable write to the pending store (a new address's record, or for a known one a record without an address
// that has expired when written). The mail, which only a new address gets, is handed over after the answer; only
// without the queue (`mailBeforeAnswer`) is it sent first, so that a failure is told, and then the time of the
// answer does tell a new address from a known one (docs/newsletter.md "Duplicates").
import { PREFERENCES_PATH, type NewsletterForm, type NewsletterList, type WelcomeAutomation } from '../config/config.js';
import { canonicalEmailAddress } from '../kit/email-address.js';
import { safeReason } from '../kit/safe-reason.js';
import { UnavailableError } from '../kit/unavailable-error.js';
import { chosenLogsOf, formListsOf } from './lists.js';
import { confirmationLink, confirmationMail, ownerNotice } from './mails.js';
import { addressKey, expiryOf, type PendingRecord } from './pending.js';
import type { Redemption } from './newsletter-store.js';
import type { AutomationClaim } from '../queue/outgoing.js';
import { createToken, hashToken } from './token.js';
import { createPreferences } from './preferences.js';
import { createUnsubscribing } from './unsubscribe.js';
import { createPreferencesToken, createUnsubscribeToken } from './unsubscribe-token.js';
import { listHeaders, listHeadersWithoutForm } from './list-headers.js';
import { welcomeMail } from './welcome.js';
import type { ConfirmOutcome, ConfirmState, Newsletter, NewsletterDeps, SignupOutcome } from './types.js';

/** How often expired pending records are purged from memory and from the journal. */
const DEFAULT_PURGE_INTERVAL_MS = 10 * 60_000;

/** How often the due steps of welcome automations, and the claims left unsettled, are looked for: within a minute. */
const DEFAULT_DRIP_INTERVAL_MS = 60_000;
/** A welcome claim this old and not settled was left by a process that stopped before the queue took its mail. */
const CLAIM_LEASE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The newsletter createNewsletter makes: with `settled`, for whoever must see the mails of answered signups. */
export interface RunningNewsletter extends Newsletter {
  /**
   * Resolves once the confirmation mail of every signup answered so far, and the welcome of every list joined on
   * the preference page, and the steps of a drip run started, have been handed over (or have failed).
   */
  settled(): Promise<void>;
}

/** Opens the newsletter's store (data_dir unless deps.store is given), then serves signups and confirmations. */
export async function createNewsletter(deps: NewsletterDeps): Promise<RunningNewsletter> {
  const { forms, from, sendMail, metrics, logger, clock, randomBytes, timers } = deps;
  const purgeIntervalMs = deps.purgeIntervalMs ?? DEFAULT_PURGE_INTERVAL_MS;
  const { store } = deps;
  const lists = deps.lists ?? formListsOf(forms);
  /** Addresses whose pending record is being written: a signup of one meanwhile is its twin, a duplicate. */
  const signingUp = new Set<string>();
  const redeeming = new Map<string, Promise<unknown>>();
  /** Confirmation mails of answered signups, not yet handed over. */
  const handingOver = new Set<Promise<unknown>>();
  let timer: unknown;
  let closed = false;
  const purgeAndRepeat = () => {
    void purge();
    if (!closed) timer = timers.setTimeout(purgeAndRepeat, purgeIntervalMs);
  };

  const welcomes = (deps.automations ?? []).filter((automation): automation is WelcomeAutomation => automation.type === 'welcome');
  const drips = welcomes.filter((automation) => automation.steps.length > 0);
  const dripIntervalMs = deps.dripIntervalMs ?? DEFAULT_DRIP_INTERVAL_MS;
  let dripTimer: unknown;
  let dripping: Promise<void> = Promise.resolve();
  const dripAndRepeat = () => {
    dripping = recoverClaims().then(drip);
    if (!closed) dripTimer = timers.setTimeout(dripAndRepeat, dripIntervalMs);
  };

  if (forms.length > 0) {
    await store.open(clock());
    timer = timers.setTimeout(purgeAndRepeat, purgeIntervalMs);
    // Every minute, the claims a stopped process left and the due drip steps; the claims at start too (below).
    if (welcomes.length > 0) dripTimer = timers.setTimeout(dripAndRepeat, dripIntervalMs);
  }

  /**
   * Hands over again the welcome mails whose claim was never settled, a lease after it was made: the process that
   * made it stopped before the queue took the mail, or after (docs/newsletter.md "Exactly once, across crashes and
   * replicas"). The claim is renewed first, and the queue sends only a mail of the pair's current claim, so of a
   * mail queued before the stop and the one queued now, one goes. Never rejects.
   */
  async function recoverClaims(): Promise<void> {
    try {
      for (const claim of await store.unsettledAutomationClaims(new Date(clock() - CLAIM_LEASE_MS).toISOString())) {
        const [id, step] = claim.automation.split('#');
        const automation = welcomes.find((candidate) => candidate.id === id);
        const content = step === undefined ? automation : automation?.steps[Number(step) - 1];
        const list = lists.find((candidate) => candidate.id === automation?.list);
        const form = forms.find((candidate) => candidate.path === list?.form) ?? forms[0];
        // An automation or step no longer configured keeps its claim, mailed if it comes back.
        if (!automation || !content || !list || !form) continue;
        if (!(await store.isSubscribed(list.log, claim.email))) {
          // It left the list meanwhile: nothing more to send.
          await store.settleAutomationClaim(claim);
          continue;
        }
        const renewed = { ...claim, claimedAt: new Date(clock()).toISOString() };
        if (!(await store.renewAutomationClaim(claim, renewed.claimedAt))) continue;
        logger.warn({ event: 'automation_recovered', form: form.path, automation: claim.automation }, 'a welcome claim was left unsettled: mailed again');
        await handOver(form, { id: claim.automation, subject: content.subject, body: content.body }, list, renewed, claim.lang);
      }
    } catch (error) {
      logger.warn({ event: 'automation_recovery_failed', reason: safeReason(error) }, 'could not look for unsettled welcome claims');
    }
  }

  /**
   * Mails the steps of the welcome automations that are due: `after_days` after the address's welcome, while it is
   * still on the list, each once per (step, address) through the same ledger (docs/newsletter.md "Automations").
   * Computed from the ledger each time, so a restart catches up. Never rejects.
   */
  async function drip(): Promise<void> {
    try {
      const now = clock();
      for (const automation of drips) {
        const list = lists.find((candidate) => candidate.id === automation.list);
        const form = forms.find((candidate) => candidate.path === list?.form) ?? forms[0];
        if (!list || !form) continue;
        const stepIds = automation.steps.map((_step, index) => `${automation.id}#${index + 1}`);
        const mailed = await store.automationsMailed([automation.id, ...stepIds]);
        const done = new Set(mailed.map((entry) => `${entry.automation}\n${entry.email.toLowerCase()}`));
        for (const welcomed of mailed.filter((entry) => entry.automation === automation.id)) {
          for (const [index, step] of automation.steps.entries()) {
            const id = stepIds[index]!;
            if (done.has(`${id}\n${welcomed.email.toLowerCase()}`) || Date.parse(welcomed.at) + step.after_days * DAY_MS > now) continue;
            if (!(await store.isSubscribed(list.log, welcomed.email))) break;
            await mailAutomation(form, { ...automation, id, subject: step.subject, body: step.body }, list, welcomed.email, welcomed.lang);
          }
        }
      }
    } catch (error) {
      logger.warn({ event: 'drip_failed', reason: safeReason(error) }, 'could not mail the due welcome steps');
    }
  }

  async function purge(): Promise<void> {
    try {
      const purged = await store.purge(clock());
      if (purged > 0) logger.info({ event: 'pending_purged', purged }, 'expired signups purged');
    } catch (error) {
      logger.warn({ event: 'pending_purge_failed', reason: safeReason(error) }, 'could not compact the pending journal');
    }
  }

  async function signup(form: NewsletterForm, typed: string, ticked?: readonly string[], lang?: string): Promise<SignupOutcome> {
    // One spelling per mailbox, as the form's rules give it (docs/newsletter.md "Duplicates").
    const email = canonicalEmailAddress(typed) ?? typed;
    const now = clock();
    const key = addressKey(form.path, email);
    const chosen = chosenLogsOf(form, ticked, lists);
    // Every look-up, always: none is skipped when an earlier one already tells. Already on every list chosen is a
    // duplicate. The secret signs the unsubscribe link of the confirmation mail.
    const [subscribed, pending, secret] = await Promise.all([
      Promise.all(chosen.map((log) => store.isSubscribed(log, email))).then((answers) => answers.every(Boolean)),
      store.hasLivePending(form, email, now),
      store.secret(),
    ]);
    const isNew = !subscribed && !pending && !signingUp.has(key);
    const listKeys = chosen.length === 1 && chosen[0]!.path === form.path ? undefined : chosen.map((log) => log.path);
    if (isNew) signingUp.add(key);
    try {
      const token = createToken(randomBytes);
      const hash = hashToken(token);
      const record: PendingRecord = isNew
        ? { hash, email, form: form.path, createdAt: now, expiresAt: expiryOf(now, form.confirm_ttl_hours), ...(listKeys ? { lists: listKeys } : {}), ...(lang !== undefined ? { lang } : {}) }
        : { hash, email: '', form: form.path, createdAt: now, expiresAt: now };
      try {
        await store.addPending(record);
      } catch (error) {
        // Nothing was kept, so no link is sent: the client may try again, on this process or another.
        if (error instanceof UnavailableError) throw error;
        metrics.count(form.path, 'persist_failed');
        logger.error({ event: 'pending_store_failed', form: form.path, reason: safeReason(error) }, 'could not store a signup');
        return 'storage_failed';
      }
      if (!isNew) return duplicate(form);
      if (deps.mailBeforeAnswer) return (await mailLink(form, record, token, secret)) ? 'ok' : 'send_failed';
      const handOver = mailLink(form, record, token, secret).finally(() => handingOver.delete(handOver));
      handingOver.add(handOver);
      return 'ok';
    } finally {
      if (isNew) signingUp.delete(key);
    }
  }

  function duplicate(form: NewsletterForm): SignupOutcome {
    metrics.count(form.path, 'duplicate_signup');
    logger.info({ event: 'duplicate_signup', form: form.path }, 'signup skipped');
    return 'duplicate';
  }

  /**
   * Mails the link of a signup; false when it could not be handed over. Such a mail ends the pending record, so
   * that the address may simply sign up again (docs/newsletter.md "When something fails"). Never rejects.
   */
  async function mailLink(form: NewsletterForm, record: PendingRecord, token: string, secret: Buffer): Promise<boolean> {
    let handedOver: Awaited<ReturnType<typeof sendMail>>;
    try {
      const link = confirmationLink(form.confirm_url, token);
      const listNames = (record.lists ?? []).flatMap((key) => lists.find((list) => list.log.path === key)?.name ?? []);
      // The confirmation carries the form's unsubscribe headers too (docs/newsletter.md "Leaving the list"): a mail
      // client's "unsubscribe" on it is harmless, and mailbox providers expect them on every mail of a list.
      const mail = { ...confirmationMail(from, deps.siteNameFor(form), record.email, link, record.expiresAt, listNames), list: listHeaders(form, createUnsubscribeToken(secret, form.path, record.email)) };
      handedOver = await sendMail(form.path, 'confirmation', mail);
    } catch (error) {
      metrics.count(form.path, 'send_failed');
      logger.error({ event: 'confirmation_send_failed', form: form.path, reason: safeReason(error) }, 'confirmation mail failed');
      await store.removePending(record.hash).catch((removeError: unknown) => {
        logger.error({ event: 'pending_remove_failed', form: form.path, reason: safeReason(removeError) }, 'could not remove a signup');
      });
      return false;
    }
    // A queued mail is counted by the queue once its server accepted it.
    if (handedOver === 'sent') {
      metrics.count(form.path, 'confirmation_sent');
      logger.info({ event: 'confirmation_sent', form: form.path }, 'confirmation mail sent');
    }
    return true;
  }

  async function settled(): Promise<void> {
    await dripping;
    while (handingOver.size > 0) await Promise.all([...handingOver]);
  }

  /** Confirmations of one token run one after another, so two at once give one 200 and one 410. */
  function oneAtATime<T>(hash: string, task: () => Promise<T>): Promise<T> {
    const run = (redeeming.get(hash) ?? Promise.resolve()).then(task, task);
    const tail = run.catch(() => undefined);
    redeeming.set(hash, tail);
    void tail.then(() => {
      if (redeeming.get(hash) === tail) redeeming.delete(hash);
    });
    return run;
  }

  function redeemOnce(form: NewsletterForm, token: string): Promise<Redemption> {
    const hash = hashToken(token);
    return oneAtATime(hash, () => redeem(form, hash));
  }

  function redeem(form: NewsletterForm, hash: string): Promise<Redemption> {
    return store.redeem(form, hash, clock());
  }

  async function confirm(form: NewsletterForm, token: string | undefined): Promise<ConfirmOutcome> {
    // A missing token counts as unknown (docs/newsletter.md "The flow").
    const redemption: Redemption = token ? await redeemOnce(form, token) : { kind: 'gone', reason: 'unknown' };
    if (redemption.kind === 'gone') {
      metrics.count(form.path, 'confirmation_failed');
      logger.info({ event: 'confirmation_rejected', form: form.path, reason: redemption.reason }, 'link unknown, used or expired');
      return 'gone';
    }
    if (redemption.kind === 'not_saved') {
      metrics.count(form.path, 'persist_failed');
      metrics.count(form.path, 'confirmation_failed');
      return 'not_saved';
    }
    if (redemption.unrecorded) metrics.count(form.path, 'persist_failed');
    metrics.count(form.path, 'confirmed');
    logger.info({ event: 'subscribed', form: form.path }, 'subscription confirmed');
    const { record, subscribedAt } = redemption;
    try {
      if ((await sendMail(form.path, 'subscriber_notice', ownerNotice(from, form, record.email, record.createdAt, subscribedAt))) === 'sent') {
        metrics.count(form.path, 'sent');
        logger.info({ event: 'owner_notified', form: form.path }, 'owner notified');
      }
    } catch (error) {
      // The subscription stands (its line is on disk); the owner finds it in the subscriber log.
      metrics.count(form.path, 'send_failed');
      logger.error({ event: 'owner_notification_failed', form: form.path, reason: safeReason(error) }, 'owner notice failed');
    }
    await welcome(form, record.email, record.lists ?? [form.path], record.lang);
    return 'confirmed';
  }

  /**
   * Mails each welcome automation of the lists `keys` that `email` joined, once per (automation, address): the pair
   * is claimed in the store before the mail is handed over, so a second confirmation, another replica or a restart
   * never mails it again, and settled once it was; a claim left unsettled is recovered (recoverClaims). Never rejects.
   */
  async function welcome(form: NewsletterForm, email: string, keys: readonly string[], lang?: string): Promise<void> {
    for (const automation of deps.automations ?? []) {
      if (automation.type !== 'welcome') continue;
      const list = lists.find((candidate) => candidate.id === automation.list);
      if (!list || !keys.includes(list.log.path)) continue;
      await mailAutomation(form, automation, list, email, lang);
    }
  }

  /** Claims (automation, email) in the store, then hands its mail over; nothing when it was claimed before. Never rejects. */
  async function mailAutomation(form: NewsletterForm, automation: Pick<WelcomeAutomation, 'id' | 'subject' | 'body'>, list: NewsletterList, email: string, lang: string | undefined): Promise<void> {
    try {
      const claimedAt = new Date(clock()).toISOString();
      if (!(await store.claimAutomation(automation.id, email, claimedAt, lang))) return;
      await handOver(form, automation, list, { automation: automation.id, email, claimedAt }, lang);
    } catch (error) {
      metrics.count(form.path, 'send_failed');
      logger.error({ event: 'automation_failed', form: form.path, automation: automation.id, reason: safeReason(error) }, 'automation mail failed');
    }
  }

  /** Hands over the mail of `claim`, queued under it, then settles the claim. */
  async function handOver(form: NewsletterForm, automation: Pick<WelcomeAutomation, 'id' | 'subject' | 'body'>, list: NewsletterList, claim: AutomationClaim, lang: string | undefined): Promise<void> {
    const { email } = claim;
    const mail = welcomeMail({
      from,
      to: email,
      automation,
      fields: { email, list: list.name, lang: lang ?? '' },
      list: await listHeadersOf(list, email),
      preferencesUrl: await preferences.linkFor(email),
      site: { title: deps.siteNameFor(form), baseUrl: deps.siteUrl ?? form.allowed_origins[0] ?? new URL(preferencesUrl).origin },
      layout: list.layout,
    });
    const outcome = await sendMail(form.path, 'newsletter', mail, claim);
    // False when a recovery renewed the claim meanwhile: the queue then sends the renewed claim's mail alone.
    await store.settleAutomationClaim(claim);
    logger.info({ event: 'automation_mailed', form: form.path, automation: automation.id, outcome }, 'automation mail handed over');
  }

  async function confirmState(form: NewsletterForm, token: string | undefined): Promise<ConfirmState> {
    return token && (await store.isLivePending(form, hashToken(token), clock())) ? 'live' : 'gone';
  }

  async function close(): Promise<void> {
    closed = true;
    if (timer !== undefined) timers.clearTimeout(timer);
    if (dripTimer !== undefined) timers.clearTimeout(dripTimer);
    await dripping;
    await settled();
    await Promise.all([...redeeming.values()]);
    await store.close();
  }

  const unsubscribing = createUnsubscribing(store, clock, logger);
  const preferencesUrl = deps.preferencesUrl ?? `${new URL(forms[0]?.confirm_url ?? 'http://localhost/').origin}${PREFERENCES_PATH}`;
  // A list joined on the preference page starts its welcome, mailed after the page is answered; `settled` waits for it.
  const onJoin = (list: NewsletterList, email: string) => {
    const form = forms.find((candidate) => candidate.path === list.form) ?? forms[0];
    if (!form) return;
    const handOver = welcome(form, email, [list.log.path]).finally(() => handingOver.delete(handOver));
    handingOver.add(handOver);
  };
  const preferences = createPreferences({ store, lists, url: preferencesUrl, clock, logger, onJoin });
  /** The list headers of a mail of `list`: its form's unsubscribe link, or for a list without one the preference page naming it. */
  const listHeadersOf = async (list: NewsletterList, email: string) => {
    const secret = await store.secret();
    const form = forms.find((candidate) => candidate.path === list.form);
    return form ? listHeaders(form, createUnsubscribeToken(secret, form.path, email)) : listHeadersWithoutForm(list, preferencesUrl, createPreferencesToken(secret, email));
  };
  if (forms.length > 0 && welcomes.length > 0) dripping = recoverClaims();
  return {
    signup,
    confirm,
    confirmState,
    isUnsubscribeToken: unsubscribing.isValid,
    unsubscribe: unsubscribing.unsubscribe,
    remove: unsubscribing.remove,
    unsubscribeLinkFor: unsubscribing.unsubscribeLinkFor,
    listHeadersFor: unsubscribing.listHeadersFor,
    listHeadersOf,
    isSubscribed: (form, email) => store.isSubscribed(form, email),
    listSubscribers: (form) => store.listSubscribers(form),
    preferences,
    settled,
    close,
  };
}
