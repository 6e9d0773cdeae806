// What every provider's parser gives back (docs/bounces.md "Where bounces come from"): the reports a body holds,
// or why the body is not that provider's format. Parsers are pure: they read bytes and return data; checking
// signatures, asking the network and answering HTTP happen elsewhere.
import type { BounceKind, BounceReport } from '../bounce-report.js';
import addressParser from 'nodemailer/lib/addressparser';

export type ParsedWebhook = { ok: true; reports: BounceReport[] } | { ok: false; problem: string };

/** A body that is not the provider's format; `problem` is fixed text for tests and logs, never echoing input. */
export function notTheFormat(problem: string): ParsedWebhook {
  return { ok: false, problem };
}

/** The JSON value of `body`, or undefined when it is not UTF-8 JSON. */
export function parseJson(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A string field of `object`, trimmed; undefined when missing, empty or not a string. */
export function textOf(object: JsonObject | undefined, key: string): string | undefined {
  const value = object?.[key];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** An object field of `object`, else undefined. */
export function objectOf(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return isObject(value) ? value : undefined;
}

/**
 * When something happened: an RFC 3339 text or seconds since the epoch (a number or its text), in ms; `now`
 * when the provider gave none that can be read.
 */
export function timeOf(value: unknown, now: number): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.round(value * 1000);
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
    const parsed = Date.parse(value);
    if (Number.isFinite(parsed)) return parsed;
  }
  return now;
}

/**
 * The mail addresses a header-like value names ("Name <a@example.com>, b@example.com"), lower-cased, in order,
 * each once. Reports compare addresses, and the VERP tag is read from them, so their case must not matter.
 */
export function addressesIn(...values: ReadonlyArray<string | undefined>): string[] {
  const found: string[] = [];
  for (const value of values) {
    if (value === undefined) continue;
    for (const entry of addressParser(value, { flatten: true })) {
      const address = entry.address.trim().toLowerCase();
      if (address.includes('@') && !found.includes(address)) found.push(address);
    }
  }
  return found;
}

/** The one address `value` names, lower-cased, or undefined. */
export function addressOf(value: string | undefined): string | undefined {
  return addressesIn(value)[0];
}

/** A report with the fields every provider fills the same way: absent ones left out rather than undefined. */
export function reportOf(fields: {
  source: BounceReport['source'];
  kind: BounceKind;
  recipient: string | undefined;
  status?: string | undefined;
  reason?: string | undefined;
  sentTo: string[];
  at: number;
}): BounceReport {
  const report: BounceReport = { source: fields.source, kind: fields.kind, sentTo: fields.sentTo, at: fields.at };
  if (fields.recipient !== undefined) report.recipient = fields.recipient;
  if (fields.status !== undefined) report.status = fields.status;
  if (fields.reason !== undefined) report.reason = shortReason(fields.reason);
  return report;
}

const MAX_REASON_LENGTH = 300;

/** A reason for logs and /admin: one line, without control characters, cut at 300 characters. */
export function shortReason(reason: string): string {
  const line = reason.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH - 1)}…` : line;
}
