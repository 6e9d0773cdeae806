// Signed download links (docs/attachments.md "Links"):
// `<public_url>/attachments/<id>?name=<filename>&type=<mime>&expires=<unix>&signature=<hex>`, the signature an
// HMAC-SHA256 of the id, name, type and expiry under the install's secret. Nothing is stored per link.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StoredAttachment } from './attachment-store.js';

export const ATTACHMENTS_PATH = '/attachments/';
export const LINK_DAYS = 7;

const signatureOf = (secret: string, id: string, name: string, type: string, expires: number): string =>
  createHmac('sha256', secret).update(`attachment\n${id}\n${name}\n${type}\n${expires}`).digest('hex');

/** The link to `file`, valid LINK_DAYS days from `now` (milliseconds). */
export function createAttachmentLink(publicUrl: string, secret: string, file: Pick<StoredAttachment, 'id' | 'filename' | 'type'>, now: number): string {
  const expires = Math.floor(now / 1000) + LINK_DAYS * 86_400;
  const query = new URLSearchParams({ name: file.filename, type: file.type, expires: String(expires), signature: signatureOf(secret, file.id, file.filename, file.type, expires) });
  return `${publicUrl.replace(/\/+$/, '')}${ATTACHMENTS_PATH}${file.id}?${query.toString()}`;
}

/** The file name and type a download's query signs for `id`, or undefined when it is not signed or has expired at `now`. */
export function verifyAttachmentLink(secret: string, id: string, query: string, now: number): { name: string; type: string } | undefined {
  const params = new URLSearchParams(query);
  const expires = Number(params.get('expires'));
  const signature = params.get('signature') ?? '';
  const name = params.get('name') ?? '';
  const type = params.get('type') ?? '';
  if (!Number.isSafeInteger(expires) || expires * 1000 < now || !/^[0-9a-f]{64}$/.test(signature)) return undefined;
  const expected = Buffer.from(signatureOf(secret, id, name, type, expires), 'hex');
  return timingSafeEqual(Buffer.from(signature, 'hex'), expected) ? { name, type } : undefined;
}
