// File names inside data_dir (`archive`, `subscribers`; docs/configuration.md "How the file is read").
import { z } from 'zod';

/**
 * What data_dir holds for the service itself: the rate-limit snapshot (src/forms/rate-limits.ts), the pending
 * signups journal (src/newsletter/pending-store.ts), the newsletter secret (newsletter-secret.ts), the mail
 * outbox (src/adapters/mail/outbox-dir.ts), the mail queue (src/adapters/files/queue-files.ts), the campaigns
 * (src/adapters/files/campaign-files.ts), the admin's sessions and trash (src/adapters/files/session-file.ts, src/admin/posts/trash.ts), the admin's
 * users with their lock file and the audit log (src/adapters/files/account-files.ts), the editor's unsaved drafts
 * (src/adapters/files/drafts.ts), and the blog's load cache
 * (src/blog/content/load-cache.ts) and its search words (src/blog/catalog/search-words-file.ts), and the suppression list
 * (src/adapters/files/suppressions.ts). A form writing to one of them would overwrite it or fail on every submission.
 */
export const RESERVED_DATA_NAMES: readonly string[] = [
  'ratelimit-snapshot.json',
  'newsletter-pending.jsonl',
  'newsletter-secret',
  'outbox',
  'queue',
  'campaigns',
  'admin-sessions.json',
  'admin-users.json',
  'admin-users.json.lock',
  'admin-audit.jsonl',
  'admin-drafts',
  'trash',
  'blog-cache.json',
  'blog-search-words.bin',
  'bounces',
  // The spam quarantine (src/adapters/files/spam-files.ts).
  'spam',
  // The blog's comments (src/adapters/files/comment-files.ts).
  'comments',
];

/** A plain file name inside data_dir, none of the reserved ones (compared without case, as macOS does). */
export const dataFileName = z
  .string()
  .min(1)
  .refine((name) => !/[/\\]/.test(name) && name !== '.' && name !== '..', 'must be a file name inside data_dir')
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters')
  .refine(
    (name) => !RESERVED_DATA_NAMES.includes(name.toLowerCase()),
    `must not be one of the service's own files in data_dir (${RESERVED_DATA_NAMES.join(', ')})`,
  );

/** A folder path (data_dir, blog.content_dir): Node refuses a path holding a NUL character. */
export const folderPath = z.string().min(1).refine((value) => !value.includes('\u0000'), 'must not contain a NUL character');
