// `[forms.attachments]` and `[storage]` (docs/attachments.md): which files a form takes, where they are kept and
// the ClamAV daemon that scans them before any link points at them.
import { z } from 'zod';

const MB = 1024 * 1024;

/** The families a form takes when `types` is left out: images, PDF, plain text, office documents. */
export const DEFAULT_ATTACHMENT_TYPES = [
  'image/*',
  'application/pdf',
  'text/plain',
  'application/vnd.openxmlformats-officedocument.*',
  'application/vnd.oasis.opendocument.*',
] as const;

/** Types a page or a program could be run from: refused whatever a form's `types` says. */
const NEVER_ACCEPTED = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|application\/(x-)?(msdownload|executable|elf|mach-binary|sh|javascript)|text\/javascript|\*\/\*|\*)$/;

const mediaType = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.+-]*\/(\*|[a-z0-9][a-z0-9.+-]*\*?)$/, 'must be a MIME type or a family such as "image/*"')
  .refine((value) => !NEVER_ACCEPTED.test(value), 'is never accepted (HTML, SVG and programs are refused)');

export const attachmentsSchema = z.strictObject({
  max_files: z.number().int().min(1).max(20, 'must be at most 20').default(3),
  max_bytes: z
    .number()
    .int()
    .min(1)
    .max(100 * MB, 'must be at most 104857600 (100 MB)')
    .default(10 * MB),
  types: z.array(mediaType).min(1).default([...DEFAULT_ATTACHMENT_TYPES]),
  /** Days a file is kept; the form's archive keeps its lines as long, so the default follows spam_keep_days. */
  keep_days: z.number().int('must be a whole number of days').min(1).max(3650).optional(),
  /** `false` delivers files without a virus scan: only when said so, never because `[storage] clamd` is missing. */
  scan: z.boolean().default(true),
});

export type AttachmentsConfig = z.output<typeof attachmentsSchema>;

export const storageSchema = z
  .strictObject({
    kind: z.enum(['files', 's3'], { error: 'must be "files" or "s3"' }).default('files'),
    /** "host:port" of clamd's TCP socket, or the path of its Unix socket. */
    clamd: z.string().min(1).optional(),
    /** With `kind = "s3"`: the store's base URL, e.g. "https://s3.eu-west-1.amazonaws.com" or a MinIO address. */
    endpoint: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    bucket: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name').optional(),
    region: z.string().min(1).default('us-east-1'),
    /** Use "${S3_ACCESS_KEY_ID}" and "${S3_SECRET_ACCESS_KEY}": the keys come from the environment. */
    access_key_id: z.string().min(1).optional(),
    secret_access_key: z.string().min(1).optional(),
    /** Prepended to each object's key. */
    prefix: z.string().regex(/^[A-Za-z0-9!_.*'()\/-]*$/, 'must be letters, digits and !_.*\'()/-').default('attachments/'),
    /** `<endpoint>/<bucket>/<key>` (MinIO, most self-hosted stores) rather than `<bucket>.<endpoint host>/<key>`. */
    path_style: z.boolean().default(true),
  })
  .superRefine((value, context) => {
    if (value.kind !== 's3') return;
    for (const key of ['endpoint', 'bucket', 'access_key_id', 'secret_access_key'] as const) {
      if (value[key] === undefined) context.addIssue({ code: 'custom', path: [key], message: 'is required with kind = "s3"' });
    }
  });

export type StorageConfig = z.output<typeof storageSchema>;

/** Where clamd listens: a TCP address or a Unix socket path. */
export type ClamdAddress = { host: string; port: number } | { path: string };

/** `[storage] clamd` as an address: "host:port" (a bracketed IPv6 host too), else a socket path. */
export function parseClamdAddress(value: string): ClamdAddress {
  const match = /^(?:\[([^\]]+)\]|([^:/\s]+)):(\d{1,5})$/.exec(value);
  if (match) return { host: (match[1] ?? match[2]) as string, port: Number(match[3]) };
  return { path: value };
}
