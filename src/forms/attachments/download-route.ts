// GET /attachments/<id> on the forms listener (docs/attachments.md "Links"): a signed link's file, streamed from
// storage as a download (`Content-Disposition: attachment`, `nosniff` from the writer), never shown inline.
import type { Answer } from '../../http/answer.js';
import { errorAnswer } from '../../http/error-catalogue.js';
import type { Route } from '../../http/route-table.js';
import type { Clock } from '../../ports.js';
import type { AttachmentStore } from './attachment-store.js';
import { ATTACHMENTS_PATH, verifyAttachmentLink } from './links.js';

export function createDownloadRoute(store: Pick<AttachmentStore, 'read'>, secret: () => Promise<string>, clock: Clock): Route {
  return {
    path: ATTACHMENTS_PATH,
    prefix: true,
    methods: {
      async GET(request): Promise<Answer> {
        const id = request.path.slice(ATTACHMENTS_PATH.length);
        const signed = verifyAttachmentLink(await secret(), id, request.query, clock());
        // An unsigned, expired or removed file all answer the same.
        if (signed === undefined) return errorAnswer('not_found');
        const content = await store.read(id);
        if (content === undefined) return errorAnswer('not_found');
        return {
          status: 200,
          headers: {
            'content-type': /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(signed.type) ? signed.type : 'application/octet-stream',
            'content-disposition': contentDisposition(signed.name),
            'cache-control': 'private, no-store',
          },
          body: content,
        };
      },
    },
  };
}

/** RFC 6266: an ASCII fallback and the UTF-8 name (RFC 8187). */
function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'attachment';
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
