// The [admin] table (docs/configuration.md "[admin]", docs/admin.md): who may sign in to /admin, how long a
// session lasts, and the time zone the pages show times in.
import { z } from 'zod';
import { parsePasswordHash } from '../kit/password-hash.js';
import { MAX_SESSION_HOURS, MAX_UPLOAD_BYTES } from './limits.js';
import { oneLineText } from './text-values.js';
import { baseUrl } from './urls.js';

const passwordHash = z.string().superRefine((value, context) => {
  const parsed = parsePasswordHash(value);
  if ('problem' in parsed) context.addIssue({ code: 'custom', message: parsed.problem });
});

/**
 * An IANA time zone name ("Europe/Berlin", "UTC"), as Intl.DateTimeFormat knows it: the admin pages show times in
 * it. Written back in its canonical spelling ("europe/berlin" is "Europe/Berlin"). A UTC offset ("+01:00"), which
 * Intl takes as a zone on Node.js 22 and 24, is refused (docs/configuration.md "[admin]").
 */
const timeZone = z.string().transform((value, context) => {
  const resolved = resolveTimeZone(value);
  if (resolved !== undefined && !isUtcOffset(resolved)) return resolved;
  context.addIssue({ code: 'custom', message: 'must be an IANA time zone name such as "UTC" or "Europe/Berlin"' });
  return z.NEVER;
});

function resolveTimeZone(value: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Intl writes every offset it takes ("+0100", "−01:00") as ±HH:MM; IANA names begin with a letter. */
const isUtcOffset = (timeZone: string) => /^[+-]/.test(timeZone);

const user = z.strictObject({
  // A name is typed on the sign-in page and shown in the header: one line, at most 100 characters.
  name: oneLineText.refine((value) => value.length <= 100, 'must be at most 100 characters').refine((value) => value === value.trim(), 'must not begin or end with white space'),
  password_hash: passwordHash,
});

export const adminSchema = z
  .strictObject({
    users: z.array(user).min(1, 'must list at least one user (make a password_hash with "postbox hash-password")'),
    session_hours: z
      .number()
      .positive('must be more than 0 (hours a session lasts without use)')
      .max(MAX_SESSION_HOURS, `must be at most ${MAX_SESSION_HOURS} (a session ends 7 days after sign-in whatever happens)`)
      .default(12),
    session_max_hours: z
      .number()
      .positive('must be more than 0 (hours a session lasts after sign-in, however busy)')
      .max(MAX_SESSION_HOURS, `must be at most ${MAX_SESSION_HOURS} (7 days)`)
      .default(MAX_SESSION_HOURS),
    // The roles that must have a second factor (TOTP or a passkey): asked to set one up at their next sign-in.
    require_second_factor: z.array(z.enum(['owner', 'editor', 'author'])).default([]),
    max_upload_bytes: z
      .number()
      .int()
      .min(1)
      .max(MAX_UPLOAD_BYTES, `must be at most ${MAX_UPLOAD_BYTES} (64 MiB: an upload is held in memory while it is checked)`)
      .default(10 * 1024 * 1024),
    // Where /admin is reached from outside (invitation links). No default here: it follows the public_url of the
    // service /admin is served on (src/config/config.ts).
    public_url: baseUrl.optional(),
    // No default here: it follows site.base_url (src/config/config.ts).
    secure_cookies: z.boolean().optional(),
    // The zone every admin page shows its times in (src/admin/views/time.tsx).
    time_zone: timeZone.default('UTC'),
  })
  .superRefine((value, context) => {
    if (typeof value.session_hours === 'number' && typeof value.session_max_hours === 'number' && value.session_hours > value.session_max_hours) {
      context.addIssue({ code: 'custom', path: ['session_hours'], message: 'must be at most session_max_hours (a session cannot stay idle longer than it lives)' });
    }
    const seen = new Set<string>();
    (Array.isArray(value.users) ? value.users : []).forEach((entry, index) => {
      const name = typeof entry?.name === 'string' ? entry.name : undefined;
      if (name === undefined) return;
      if (seen.has(name)) context.addIssue({ code: 'custom', path: ['users', index, 'name'], message: 'is listed twice' });
      seen.add(name);
    });
  });
