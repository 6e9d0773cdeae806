// [mail.dkim] (docs/configuration.md "[mail.dkim]"): the domain, selector and RSA key every mail is signed with.
// A key that does not parse would make nodemailer send every mail unsigned without a word, so the key is
// parsed when the file is loaded, and a bad one fails `postbox check` with its key path.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { isHost } from './hosts.js';

/** RFC 8301 section 3.2: signers must use RSA keys of at least 1024 bits (2048 recommended). */
const MIN_DKIM_KEY_BITS = 1024;

const KEY_FORM_MESSAGE =
  'must be an unencrypted RSA private key in PEM form ("-----BEGIN PRIVATE KEY-----" or "-----BEGIN RSA PRIVATE KEY-----")';

/** Why `pem` cannot sign rsa-sha256 DKIM signatures, or undefined when it can. Never quotes the key. */
function dkimKeyProblem(pem: string): string | undefined {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    return KEY_FORM_MESSAGE;
  }
  if (key.asymmetricKeyType !== 'rsa') return `must be an RSA key (mail is signed rsa-sha256), not ${key.asymmetricKeyType ?? 'this kind of key'}`;
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_DKIM_KEY_BITS) return `must have at least ${MIN_DKIM_KEY_BITS} bits (RFC 8301; 2048 is recommended), this one has ${bits}`;
  return undefined;
}

/**
 * A PEM as it often comes out of an environment file: on one line with its line breaks written as `\n`. Only
 * a value without a real line break is unescaped, so a proper PEM is never changed.
 */
function unescapeLineBreaks(pem: string): string {
  return pem.includes('\n') ? pem : pem.replace(/\\n/g, '\n');
}

// RFC 6376 section 3.1: a selector is one or more dot-separated labels of letters, digits and inner hyphens.
const SELECTOR = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** The signing domain (`d=`), in its ASCII (punycode) spelling as DNS and receivers see it. */
const signingDomain = z.string().transform((value, context) => {
  const ascii = domainToASCII(value.replace(/\.$/, '')).toLowerCase();
  if (ascii.includes('.') && isHost(ascii) && isIP(ascii) === 0) return ascii;
  context.addIssue({ code: 'custom', message: 'must be a domain name such as "example.com" (the d= of the signature)' });
  return z.NEVER;
});

export const dkimSchema = z
  .strictObject({
    domain: signingDomain,
    selector: z.string().regex(SELECTOR, 'must be a selector such as "postbox" or "2024-05.mail" (letters, digits, "-" and ".")'),
    private_key: z
      .string()
      .transform(unescapeLineBreaks)
      .superRefine((value, context) => {
        const problem = dkimKeyProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    private_key_file: z.string().min(1).refine((value) => !value.includes('\u0000'), 'must not contain a NUL character').optional(),
  })
  .superRefine((value, context) => {
    if (value.private_key === undefined && value.private_key_file === undefined) {
      context.addIssue({ code: 'custom', path: ['private_key'], message: 'is required, or private_key_file (the path of a PEM file)' });
    }
    if (value.private_key !== undefined && value.private_key_file !== undefined) {
      context.addIssue({ code: 'custom', path: ['private_key_file'], message: 'cannot be set together with private_key: use one of them' });
    }
  });

export type ParsedDkim = z.output<typeof dkimSchema>;

/** [mail.dkim] as the mailer uses it: the key itself, whichever way it was given. */
export interface DkimConfig {
  domain: string;
  selector: string;
  /** The PEM text of the RSA private key. */
  private_key: string;
}

/** The key path and message of a key file that cannot be used. */
export interface KeyFileProblem {
  path: string;
  message: string;
}

/**
 * [mail.dkim] with its key: the inline `private_key`, or the PEM read from `private_key_file` (relative to
 * `baseDir`, the config file's folder) and checked like an inline one.
 */
export function resolveDkim(dkim: ParsedDkim, baseDir: string): { dkim: DkimConfig } | { problem: KeyFileProblem } {
  const { domain, selector } = dkim;
  if (dkim.private_key !== undefined) return { dkim: { domain, selector, private_key: dkim.private_key } };
  const file = path.resolve(baseDir, dkim.private_key_file ?? '');
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { problem: { path: 'mail.dkim.private_key_file', message: `cannot read ${file} (${code})` } };
  }
  const problem = dkimKeyProblem(pem);
  if (problem) return { problem: { path: 'mail.dkim.private_key_file', message: `${file} ${problem}` } };
  return { dkim: { domain, selector, private_key: pem } };
}
