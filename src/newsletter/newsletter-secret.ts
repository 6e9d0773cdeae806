// The newsletter's HMAC key (docs/newsletter.md "Leaving the list"): 32 random bytes in data_dir/newsletter-secret,
// written once with mode 0600 at the first start and read at every start, so unsubscribe links outlive restarts.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RandomBytes } from '../ports.js';
import { createFileExclusively } from '../kit/files/atomic-file.js';

/** The secret's file name inside data_dir. */
export const NEWSLETTER_SECRET_FILE = 'newsletter-secret';
const SECRET_BYTES = 32;

/** Reads the secret, creating it first when there is none; a file of another length is an error, never replaced. */
export async function loadNewsletterSecret(dataDir: string, randomBytes: RandomBytes): Promise<Buffer> {
  const file = path.join(dataDir, NEWSLETTER_SECRET_FILE);
  const existing = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  const secret = existing ?? (await createSecret(file, randomBytes(SECRET_BYTES)));
  if (secret.length !== SECRET_BYTES) throw new Error(`the newsletter secret ${file} is not ${SECRET_BYTES} bytes; move it away to make a new one (old unsubscribe links then stop working)`);
  return secret;
}

/**
 * Creates the secret file whole and flushed, or not at all (a crash mid-write would otherwise leave a short secret
 * that stops every later start); a secret another process made first wins and is the one returned.
 */
async function createSecret(file: string, secret: Buffer): Promise<Buffer> {
  const created = await createFileExclusively(path.dirname(file), [path.basename(file)], secret, 0o600);
  return created === undefined ? readFile(file) : secret;
}
