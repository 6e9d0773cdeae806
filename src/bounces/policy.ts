// The suppression policy (docs/bounces.md "Suppression"): what one BounceReport means for its address. The signed
// tag names the mail and so its recipient; a hard bounce or a complaint puts the address on the list at once (a
// complaint also takes it off every newsletter list), soft bounces count until `soft_limit` of them fall within
// `soft_days`, and nothing of the owner's is ever suppressed: the owner's own bounces are logged as errors.
// Logs name the source, the kind and the status, never an address.
import type { Logger } from '../kit/log.js';
import type { NewsletterStore } from '../newsletter/newsletter-store.js';
import type { Clock } from '../ports.js';
import { scrubReply } from '../queue/failure.js';
import type { BounceOutcome, BounceReport, BounceSink } from './bounce-report.js';
import type { BounceStore, SentMail, Suppression } from './bounce-store.js';
import type { Verp } from './verp.js';

const DAY_MS = 86_400_000;

export interface BouncePolicyDeps {
  store: BounceStore;
  /** The tag reader, keyed from the state store's secret. */
  verp(): Promise<Verp>;
  /** Whether `address` (lower-cased) is one of the owner's: a form's `to`, `mail.to`, an /admin user's address. */
  isOwnerAddress(address: string): Promise<boolean>;
  /** The newsletter's records: a complaint takes its address off every list there. */
  subscribers: Pick<NewsletterStore, 'removeEverywhere'>;
  /** When a complaint's address left its lists. */
  clock: Clock;
  /** `[mail.bounces] soft_limit` and `soft_days`. */
  softLimit: number;
  softDays: number;
  logger: Logger;
}

/** Why a report changed nothing, for the log. */
type IgnoredBecause = 'no_failure' | 'forged_tag' | 'unknown_tag' | 'no_tag' | 'no_recipient';

/**
 * The sink every intake hands its reports to. Outcomes: `suppressed` when this report put the address on the list;
 * `counted` when it was recorded without doing so (a soft bounce under the limit, an address on the list already);
 * `owner` for a bounce of the owner's; `ignored` for a kind of `none`, a forged or unknown tag, a mailbox report
 * without a tag, or a report naming no recipient.
 */
export function createBouncePolicy(deps: BouncePolicyDeps): BounceSink {
  const { store, logger } = deps;

  const ignore = (report: BounceReport, because: IgnoredBecause): BounceOutcome => {
    const fields = { event: 'bounce_ignored', source: report.source, kind: report.kind, reason: because };
    if (because === 'forged_tag') logger.warn(fields, 'a bounce with a tag this service did not sign: ignored');
    else logger.info(fields, 'a bounce that names no mail of this service: ignored');
    return 'ignored';
  };

  /** The sent mail the report's tag names: undefined without a tag, or why it names none. */
  async function sentMailOf(report: BounceReport): Promise<SentMail | IgnoredBecause | undefined> {
    const reading = (await deps.verp()).read(report.sentTo);
    if (reading === 'forged') return 'forged_tag';
    if (reading === undefined) {
      // Anybody can write to the mailbox: only a signed tag says the mail was ours. A provider's webhook is
      // authenticated, and a refusal at send time is our own observation, so their recipient stands.
      return report.source === 'imap' ? 'no_tag' : undefined;
    }
    return (await store.findSent(reading.id)) ?? 'unknown_tag';
  }

  return {
    async record(report) {
      if (report.kind === 'none') return ignore(report, 'no_failure');
      const sent = await sentMailOf(report);
      if (typeof sent === 'string') return ignore(report, sent);
      const named = normalise(report.recipient);
      if (sent?.owner) return owner(report, sent);
      // The tag's recipient is the one the mail went to; a report naming another address is not trusted over it.
      const address = sent ? (named !== undefined && sent.to.includes(named) ? named : sent.to.length === 1 ? sent.to[0] : undefined) : named;
      if (address === undefined) return ignore(report, 'no_recipient');
      if (await deps.isOwnerAddress(address)) return owner(report, sent);
      const entry: Suppression = {
        address,
        kind: report.kind,
        at: report.at,
        reason: scrubReply(report.reason ?? report.status ?? report.kind) || report.kind,
        source: report.source,
      };
      let outcome: BounceOutcome;
      if (report.kind === 'soft') {
        outcome = await store.countSoft(entry, { limit: deps.softLimit, windowMs: deps.softDays * DAY_MS });
      } else {
        outcome = (await store.suppress(entry)) ? 'suppressed' : 'counted';
        if (report.kind === 'complaint') await leaveEveryList(address);
        // The campaign's runner weighs these before it hands on its next mails (docs/bounces.md "Suppression").
        if (sent?.campaign) await store.tallyCampaign(sent.campaign.campaign, sent.campaign.index, report.kind, report.at);
      }
      const fields = {
        event: outcome === 'suppressed' ? 'address_suppressed' : 'bounce_counted',
        source: report.source,
        kind: report.kind,
        ...(report.status === undefined ? {} : { status: report.status }),
        ...(sent ? { mail: sent.kind, form: sent.form } : {}),
        ...(sent?.campaign ? { campaign: sent.campaign.campaign } : {}),
      };
      logger.info(fields, outcome === 'suppressed' ? 'an address was put on the suppression list' : 'a bounce was counted');
      return outcome;
    },
  };

  /** Takes `address` off every newsletter list after a complaint, the same `unsubscribed` line as a link. */
  async function leaveEveryList(address: string): Promise<void> {
    for (const form of await deps.subscribers.removeEverywhere(address, new Date(deps.clock()).toISOString())) {
      logger.info({ event: 'unsubscribed', form, by: 'complaint' }, 'address left the list');
    }
  }

  function owner(report: BounceReport, sent: SentMail | undefined): BounceOutcome {
    logger.error(
      {
        event: 'bounce_owner',
        source: report.source,
        kind: report.kind,
        ...(report.status === undefined ? {} : { status: report.status }),
        ...(sent ? { mail: sent.kind, form: sent.form } : {}),
        ...(report.reason === undefined ? {} : { reason: scrubReply(report.reason) }),
      },
      "a mail to the owner's own address bounced: check that address (it is never suppressed)",
    );
    return 'owner';
  }
}

/** A reported address as the list keeps it: trimmed and lower-cased; undefined when it is none. */
function normalise(address: string | undefined): string | undefined {
  const trimmed = address?.trim().toLowerCase();
  return trimmed && trimmed.lastIndexOf('@') > 0 ? trimmed : undefined;
}
