// The suppression list on the way out (docs/bounces.md "Suppression"): a mail to a visitor or subscriber (a receipt,
// a confirmation, a campaign mail) is checked when it is queued and again just before it is sent, and is held back
// when its address is on the list; an owner mail never is. Every mail that leaves gets its tagged envelope sender
// (with `[mail.bounces] address`), and what the tag stands for is recorded first; a permanent refusal of the
// recipient at send time is reported to the policy like any bounce (source `smtp`).
import { parseMailboxes } from '../config/mail-addresses.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import type { Clock, MailMessage, RandomBytes } from '../ports.js';
import type { CampaignRecipient, Dispatch, MailKind, OutgoingMessage } from '../queue/outgoing.js';
import type { BounceSink } from './bounce-report.js';
import type { BounceStore } from './bounce-store.js';
import { smtpRefusalOf } from './smtp-refusal.js';
import { newSentId, type Verp } from './verp.js';

/** What a mail is, beyond its message: why it is sent, for which form, for which campaign's recipient. */
export interface MailContext {
  kind: MailKind;
  /** The form's path; '' for none. */
  form: string;
  recipient?: CampaignRecipient;
}

/** Mails to the owner: never held back; their bounces are the owner's to see, never suppressed. */
const OWNER_KINDS: ReadonlySet<MailKind> = new Set(['owner', 'subscriber_notice']);
/**
 * Mails the list holds back: those to the addresses of visitors and subscribers. A test mail and an invitation go
 * to an address an owner typed on purpose, and leave (their bounces still count).
 */
const CHECKED_KINDS: ReadonlySet<MailKind> = new Set(['receipt', 'confirmation', 'newsletter']);

/** A mail held back because its address is suppressed (without the queue, where the sender expects a send). */
export class SuppressedAddressError extends Error {
  readonly code = 'ESUPPRESSED';
  constructor() {
    super('the address is on the suppression list');
    this.name = 'SuppressedAddressError';
  }
}

export interface BounceGuardDeps {
  store: BounceStore;
  /** The tag signer, keyed from the state store's secret. */
  verp(): Promise<Verp>;
  /** `[mail.bounces] address`: without it a mail keeps `mail.from` as its envelope sender and no tag is recorded. */
  address?: string;
  /** Where a refusal at send time is reported. */
  sink: BounceSink;
  clock: Clock;
  randomBytes: RandomBytes;
  logger: Logger;
}

export interface BounceGuard {
  /** Whether a mail of `context` to `address` is held back (suppressed, and a mail the list applies to); logged. */
  isHeldBack(address: string, context: MailContext): Promise<boolean>;
  /** `messages` without the mails that are held back, for the queue. */
  filterQueued(messages: readonly OutgoingMessage[]): Promise<OutgoingMessage[]>;
  /** Just before sending: `mail` with its tagged envelope sender (its tag recorded), or undefined when held back. */
  prepare(mail: MailMessage, context: MailContext): Promise<MailMessage | undefined>;
  /** After a send that failed: a permanent refusal of the recipient is reported to the sink. Never rejects. */
  refused(mail: MailMessage, context: MailContext, error: unknown): Promise<void>;
}

export function createBounceGuard(deps: BounceGuardDeps): BounceGuard {
  const { store, logger } = deps;

  async function isHeldBack(address: string, context: MailContext): Promise<boolean> {
    if (!CHECKED_KINDS.has(context.kind) || !(await store.isSuppressed(address))) return false;
    logger.info(
      { event: 'mail_suppressed', form: context.form, mail: context.kind, ...(context.recipient ? { campaign: context.recipient.campaign } : {}) },
      'a mail to a suppressed address was not sent',
    );
    return true;
  }

  async function prepare(mail: MailMessage, context: MailContext): Promise<MailMessage | undefined> {
    if (await isHeldBack(mail.to, context)) return undefined;
    if (deps.address === undefined) return mail;
    const at = deps.clock();
    const id = newSentId(at, deps.randomBytes);
    try {
      const verp = await deps.verp();
      await store.recordSent({ id, to: recipientsOf(mail.to), owner: OWNER_KINDS.has(context.kind), kind: context.kind, form: context.form, ...(context.recipient ? { campaign: context.recipient } : {}), at });
      return { ...mail, envelopeFrom: verp.envelopeSender(deps.address, id) };
    } catch (error) {
      // The mail matters more than matching its bounce: it leaves untagged, with mail.from as its envelope sender.
      logger.warn({ event: 'bounce_tag_failed', form: context.form, mail: context.kind, reason: safeReason(error) }, 'a mail leaves without its bounce tag: its record could not be written');
      return mail;
    }
  }

  async function refused(mail: MailMessage, context: MailContext, error: unknown): Promise<void> {
    const refusal = smtpRefusalOf(error);
    if (!refusal) return;
    const rejected = (error as { rejected?: unknown }).rejected;
    const recipient = Array.isArray(rejected) && typeof rejected[0] === 'string' ? rejected[0] : recipientsOf(mail.to)[0];
    try {
      await deps.sink.record({
        source: 'smtp',
        kind: refusal.kind,
        ...(recipient === undefined ? {} : { recipient: recipient.toLowerCase() }),
        ...(refusal.status === undefined ? {} : { status: refusal.status }),
        reason: refusal.reason,
        sentTo: mail.envelopeFrom === undefined ? [] : [mail.envelopeFrom],
        at: deps.clock(),
      });
    } catch (recordError) {
      logger.error({ event: 'bounce_record_failed', source: 'smtp', form: context.form, reason: safeReason(recordError) }, 'a refusal at send time could not be recorded');
    }
  }

  return {
    isHeldBack,
    async filterQueued(messages) {
      const held = await Promise.all(
        messages.map((message) => (message.channel === 'mail' ? isHeldBack(message.mail.to, { kind: message.kind, form: message.form, recipient: message.recipient }) : false)),
      );
      return messages.filter((_message, index) => !held[index]);
    },
    prepare,
    refused,
  };
}

/**
 * `dispatch` with the list checked again just before a mail is sent (a mail to an address suppressed while it
 * waited leaves the queue unsent, `skipped`), its envelope sender tagged, and a refusal at send time reported.
 */
export function guardDispatch(dispatch: Dispatch, guard: BounceGuard): Dispatch {
  return async (queued) => {
    const { message } = queued;
    if (message.channel !== 'mail') return dispatch(queued);
    const context: MailContext = { kind: message.kind, form: message.form, recipient: message.recipient };
    const prepared = await guard.prepare(message.mail, context);
    if (!prepared) return 'skipped';
    try {
      return await dispatch({ ...queued, message: { ...message, mail: prepared } });
    } catch (error) {
      await guard.refused(prepared, context, error);
      throw error;
    }
  };
}

/** The addresses of a To value, lower-cased (an owner's may list several). */
function recipientsOf(to: string): string[] {
  const parsed = parseMailboxes(to);
  return ('addresses' in parsed ? parsed.addresses : [to]).map((address) => address.toLowerCase());
}
