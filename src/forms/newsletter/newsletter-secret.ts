// The newsletter's HMAC key (docs/newsletter.md "Leaving the list"): 32 random bytes in data_dir/newsletter-secret,
// written once with mode 0600 at the first start and read at every start, so unsubscribe links outlive restarts.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RandomBytes } from '../../ports.js';

/** The secret's file name inside data_dir. */
export const NEWSLETTER_SECRET_FILE = 'newsletter-secret';
const SECRET_BYTES = 32;

/** Reads the secret, creating it first when there is none; a file of another length is an error, never replaced. */
export async function loadNewsletterSecret(dataDir: string, randomBytes: RandomBytes): Promise<Buffer> {
  const file = path.join(dataDir, NEWSLETTER_SECRET_FILE);
  try {
    await writeFile(file, randomBytes(SECRET_BYTES), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = await readFile(file);
  if (secret.length !== SECRET_BYTES) throw new Error(`the newsletter secret ${file} is not ${SECRET_BYTES} bytes; move it away to make a new one (old unsubscribe links then stop working)`);
  return secret;
}
