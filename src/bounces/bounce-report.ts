// What every intake of bounces hands on (docs/bounces.md): the IMAP mailbox, the providers' webhooks and a
// permanent SMTP refusal at send time each turn what they read into one BounceReport, and the suppression policy
// decides what it means for the address. Intakes know nothing of the policy; the policy knows nothing of where a
// report came from beyond its `source`.

export type BounceKind = 'hard' | 'soft' | 'complaint' | 'none';

export type BounceSource = 'imap' | 'postmark' | 'ses' | 'sendgrid' | 'mailgun' | 'smtp';

export interface BounceReport {
  source: BounceSource;
  kind: BounceKind;
  /** The address that failed, lower-cased; from the VERP tag when there is one, else as the report names it. */
  recipient?: string;
  /** The enhanced status code ("5.1.1") when known. */
  status?: string;
  /** A short reason for logs and /admin. */
  reason?: string;
  /**
   * The addresses the bounce was sent to (for a mailbox) or the envelope sender the provider reports: where the
   * signed VERP tag (`bounces+TAG@domain`) is found.
   */
  sentTo: readonly string[];
  /** When the failure happened, ms since the epoch (the provider's time, else when it was read). */
  at: number;
}

/** Where intakes hand their reports; the suppression policy implements it. */
export interface BounceSink {
  /** Applies one report; resolves once its effect (if any) is durable. Never throws for a report it ignores. */
  record(report: BounceReport): Promise<BounceOutcome>;
}

/** What a report did: `ignored` for a forged or missing tag where one is required, or a kind of `none`. */
export type BounceOutcome = 'suppressed' | 'counted' | 'owner' | 'ignored';
