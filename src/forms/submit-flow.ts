// What POST <form_path> does, in the order docs/forms-api.md "POST <path>" gives: origin, rate limit, body
// size, body syntax, field validation, honeypot, the spam checks (docs/spam.md); then persist, then deliver (or the
// newsletter signup). A submission taken for spam is quarantined (or rejected) before anything is kept or sent.
// It returns an outcome and knows nothing of HTTP: the form routes turn outcomes into answers.
import type { Readable } from 'node:stream';
import type { FormConfig, MessageForm, NewsletterForm } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import { toArchiveLine } from './archive.js';
import type { DeliveryOutcome } from './delivery.js';
import type { Metrics } from './metrics.js';
import type { Newsletter } from '../newsletter/index.js';
import type { AttachmentLink, SubmissionNotice } from './notifications.js';
import type { StoredAttachment } from './attachments/attachment-store.js';
import type { ArchiveStore, Clock } from '../ports.js';
import { readFormBody } from './request-body.js';
import type { AttachmentIntake } from './attachments/file-intake.js';
import type { HeldRecord, ScanGate, ScanGateSinks } from './attachments/scan-gate.js';
import type { FieldName } from './rules/submission-fields.js';
import { conversionPageOf } from './rules/conversion-page.js';
import { isOriginAllowed } from './rules/cors.js';
import { UnavailableError, type FormLimiter } from './rate-limits.js';
import { createSubmissionCheck, type FieldError, type Submission } from './rules/submission.js';
import type { SpamStore } from './spam/quarantine.js';
import type { SpamCheck } from './spam/spam-check.js';
import type { SpamVerdict } from './spam/spam-reasons.js';

/** What the flow needs of a request, whatever received it. */
export interface SubmitInput {
  origin: string | undefined;
  clientAddress: string;
  contentType: string | undefined;
  contentLength: string | undefined;
  /** The Referer header: the page of a conversion when the body names none (docs/analytics.md "What is counted"). */
  referer?: string;
  /** The unread body. */
  body: Readable;
}

/** Why a submission was refused, with the message to show where the catalogue's text is too general. */
export type RefusalCode = 'origin_not_allowed' | 'rate_limited' | 'body_too_large' | 'invalid_body' | 'spam' | 'storage_failed' | 'send_failed' | 'unavailable';

export type SubmitOutcome =
  /** Delivered, signed up (or already on the list), quarantined as spam, or a honeypot hit: all look the same to the client. */
  | { kind: 'accepted' }
  | { kind: 'invalid'; details: readonly FieldError[] }
  | { kind: 'refused'; code: RefusalCode; message?: string; retryAfterSeconds?: number };

export interface SubmitFlowDeps {
  metrics: Metrics;
  logger: Logger;
  clock: Clock;
  /** The form's rate limiter; undefined when its rate_limit_per_hour is 0. */
  limiter: FormLimiter | undefined;
  /** The bucket a client address counts against (an IPv6 address counts for its network). */
  rateLimitKey(address: string): string;
  maxBodyBytes: number;
  newsletter: Newsletter;
  /** Where accepted submissions of forms with an `archive` are kept before delivery. */
  archives: ArchiveStore;
  deliver(notice: SubmissionNotice): Promise<DeliveryOutcome>;
  /** The form's spam checks (docs/spam.md). */
  spam: SpamCheck;
  /** Where submissions taken for spam are kept. */
  quarantine: Pick<SpamStore, 'quarantine'>;
  /** Counts an accepted submission as a conversion of its form on `page` (docs/analytics.md), with [analytics]. */
  convert?(form: string, page: string): void;
  /** The signed links of scanned files (docs/attachments.md "Links"). */
  linkAttachments?(files: readonly StoredAttachment[]): Promise<AttachmentLink[]>;
  /** With `[forms.attachments]` (docs/attachments.md): where files go, and the scan before anything links them. */
  attachments?: { intake: AttachmentIntake; gate: ScanGate; createId(): string };
}

const ACCEPTED: SubmitOutcome = Object.freeze({ kind: 'accepted' });

/** The flow of `form`; it rejects only on a failure nobody planned for (the front door answers that). */
export function createSubmitFlow(form: FormConfig, deps: SubmitFlowDeps): (input: SubmitInput) => Promise<SubmitOutcome> {
  const { metrics, logger, clock, limiter } = deps;
  const count = (counter: Parameters<typeof metrics.count>[1]) => metrics.count(form.path, counter);
  const checkSubmission = createSubmissionCheck(form);
  const accept = createAcceptedPath(form, deps);
  const refused = (code: RefusalCode, message?: string): SubmitOutcome => ({ kind: 'refused', code, message });

  return async function submit(input) {
    if (!isOriginAllowed(input.origin, form.allowed_origins)) {
      count('origin_blocked');
      return refused('origin_not_allowed');
    }
    count('received');
    let token = limiter?.take(deps.rateLimitKey(input.clientAddress), clock());
    if (token instanceof Promise) {
      try {
        token = await token;
      } catch (error) {
        if (!(error instanceof UnavailableError)) throw error;
        // Fail closed: without the shared buckets nobody's limit can be checked, so nobody gets past it.
        logger.warn({ event: 'rate_limit_unavailable', form: form.path, part: error.part }, 'rate limit store unreachable: submission refused');
        return refused('unavailable');
      }
    }
    if (token && !token.allowed) {
      count('rate_limited');
      return { kind: 'refused', code: 'rate_limited', retryAfterSeconds: token.retryAfterSeconds };
    }

    const attachments = deps.attachments;
    const body = await readFormBody({ stream: input.body, contentType: input.contentType, contentLength: input.contentLength }, deps.maxBodyBytes, attachments?.intake);
    if (!body.ok) {
      if (body.error === 'validation') {
        count('validation_failed');
        // An input's name, or `attachments` for too many files: the form's own markup names it.
        return { kind: 'invalid', details: [{ field: body.field as FieldName, message: body.message }] };
      }
      if (body.error === 'storage_failed') {
        // Nothing of the body was kept (docs/attachments.md "S3 storage"): the client may send it again.
        count('persist_failed');
        logger.error({ event: 'attachment_write_failed', form: form.path }, 'a file could not be written to storage');
        return refused('storage_failed');
      }
      count(body.error);
      return refused(body.error, body.message);
    }
    const files = body.files ?? [];

    const check = checkSubmission(body.fields);
    if (!check.ok || check.honeypotHit || files.length === 0) await attachments?.gate.removeFiles(files);
    if (!check.ok) {
      count('validation_failed');
      return { kind: 'invalid', details: check.details };
    }
    if (check.honeypotHit) {
      count('honeypot_blocked');
      logger.info({ event: 'honeypot', form: form.path }, 'honeypot hit');
      return ACCEPTED;
    }
    if (deps.spam.enabled) {
      let verdict: SpamVerdict;
      try {
        verdict = await deps.spam.check(body.fields, check.submission, input.clientAddress, clock());
      } catch (error) {
        if (!(error instanceof UnavailableError)) throw error;
        // Which challenges were used lives in the state store: without it a replay cannot be told apart.
        logger.warn({ event: 'spam_store_unavailable', form: form.path, part: error.part }, 'spam store unreachable: submission refused');
        return refused('unavailable');
      }
      if (verdict.reasons.length > 0) {
        // Spam keeps its files, unscanned, until a person decides: "Not spam" scans them before anything links
        // them (docs/attachments.md "Virus scan"); they age out after keep_days with the quarantine.
        return handleSpam({ ...check.submission, ...(files.length > 0 ? { attachments: files } : {}) }, verdict);
      }
    }
    const receivedAt = new Date(clock()).toISOString();
    let outcome: SubmitOutcome = ACCEPTED;
    if (attachments && files.length > 0) {
      const record: HeldRecord = { form: form.path, receivedAt, submission: { ...check.submission, attachments: files } };
      const sinks: ScanGateSinks = {
        accept: async (scanned) => (outcome = await accept(scanned.submission, scanned.receivedAt)),
        quarantineVirus: (infected) => deps.quarantine.quarantine({ form: form.path, receivedAt, reasons: ['virus'], submission: infected.submission }),
      };
      const passed = await attachments.gate.pass(record, sinks);
      if (passed === 'infected') {
        count('spam_virus');
        count('spam_quarantined');
      }
      if (passed === 'held') await attachments.gate.hold(attachments.createId(), record);
      // Held or infected: answered as an accepted one (docs/attachments.md "Virus scan"). Refused: the client sends again.
      if (outcome.kind !== 'accepted') await attachments.gate.removeFiles(files);
      if (passed !== 'accepted') return ACCEPTED;
    } else {
      outcome = await accept(check.submission, receivedAt);
    }
    if (outcome.kind === 'accepted' && deps.convert) {
      const page = conversionPageOf(body.fields._page, input.referer);
      if (page !== undefined) deps.convert(form.path, page);
    }
    return outcome;
  };

  /**
   * Quarantine (the default): kept with its reasons, nothing delivered, and the client told what an accepted
   * submission is told. Reject: 400 spam. A captcha provider that could not be asked always quarantines.
   */
  async function handleSpam(submission: Submission, verdict: SpamVerdict): Promise<SubmitOutcome> {
    for (const reason of verdict.reasons) count(`spam_${reason}`);
    if (form.spam.action === 'reject' && !verdict.captchaUnreachable) {
      count('spam_rejected');
      logger.info({ event: 'spam_rejected', form: form.path, reasons: verdict.reasons }, 'submission rejected as spam');
      return refused('spam');
    }
    try {
      await deps.quarantine.quarantine({ form: form.path, receivedAt: new Date(clock()).toISOString(), reasons: verdict.reasons, submission });
    } catch (error) {
      count('persist_failed');
      if (error instanceof UnavailableError) {
        logger.warn({ event: 'spam_store_unavailable', form: form.path, part: error.part }, 'spam store unreachable: submission refused');
        return refused('unavailable');
      }
      logger.error({ event: 'quarantine_failed', form: form.path, reason: safeReason(error) }, 'quarantine write failed');
      return refused('storage_failed');
    }
    count('spam_quarantined');
    logger.info({ event: 'spam_quarantined', form: form.path, reasons: verdict.reasons }, 'submission quarantined as spam');
    return ACCEPTED;
  }
}

/** What the accepted path of a form needs: the same for a submission now and for one released from the quarantine. */
export type AcceptedPathDeps = Pick<SubmitFlowDeps, 'metrics' | 'logger' | 'newsletter' | 'archives' | 'deliver'> & {
  /** The signed links of scanned files (docs/attachments.md "Links"). */
  linkAttachments?(files: readonly StoredAttachment[]): Promise<AttachmentLink[]>;
};

/**
 * What happens to a submission once it passed every check: the newsletter sign-up, or the archive line then the
 * delivery. "Not spam" in /admin goes the same way (docs/spam.md "Quarantine").
 */
export function createAcceptedPath(form: FormConfig, deps: AcceptedPathDeps): (submission: Submission, receivedAt: string) => Promise<SubmitOutcome> {
  const { metrics, logger } = deps;
  const count = (counter: Parameters<typeof metrics.count>[1]) => metrics.count(form.path, counter);
  const refused = (code: RefusalCode, message?: string): SubmitOutcome => ({ kind: 'refused', code, message });
  return (submission, receivedAt) => (form.type === 'newsletter' ? signUp(form, submission) : persistAndDeliver(form, submission, receivedAt));

  async function signUp(newsletterForm: NewsletterForm, submission: Submission): Promise<SubmitOutcome> {
    let outcome;
    try {
      outcome = await deps.newsletter.signup(newsletterForm, submission.email, submission.lists, submission.lang);
    } catch (error) {
      if (!(error instanceof UnavailableError)) throw error;
      // No pending signup was kept, so no link went out: the client may try again.
      count('persist_failed');
      logger.warn({ event: 'newsletter_unavailable', form: form.path, part: error.part }, 'newsletter store unreachable: signup refused');
      return refused('unavailable');
    }
    return outcome === 'ok' || outcome === 'duplicate' ? ACCEPTED : refused(outcome);
  }

  async function persistAndDeliver(messageForm: MessageForm, submission: Submission, receivedAt: string): Promise<SubmitOutcome> {
    const files = submission.attachments ?? [];
    const notice: SubmissionNotice = {
      form: messageForm,
      submission,
      receivedAt,
      ...(files.length > 0 && deps.linkAttachments ? { links: await deps.linkAttachments(files) } : {}),
    };
    if (messageForm.archive !== undefined) {
      try {
        await deps.archives.append(messageForm.archive, toArchiveLine(notice));
      } catch (error) {
        count('persist_failed');
        if (error instanceof UnavailableError) {
          // Nothing was kept, so nothing is sent: the client may try again, on this replica or another.
          logger.warn({ event: 'archive_unavailable', form: form.path, part: error.part }, 'archive store unreachable: submission refused');
          return refused('unavailable');
        }
        logger.error({ event: 'archive_failed', form: form.path, reason: safeReason(error) }, 'archive write failed');
        return refused('storage_failed');
      }
    }
    const outcome = await deps.deliver(notice);
    if (outcome === 'unavailable') return refused('unavailable');
    return outcome === 'delivered' ? ACCEPTED : refused('send_failed');
  }
}
