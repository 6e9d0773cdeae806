// GET and HEAD /api/blog/media/<slug>/<file> (docs/blog.md "Images beside a post"): an image beside a published
// post, read when asked for, with its content type, a strong ETag (304 on If-None-Match) and the API's
// Cache-Control. Anything else is 404 not_found.
import type { Answer } from '../../http/answer.js';
import type { Handler, RoutedRequest } from '../../http/route-table.js';
import { mediaFoldersOf, parseMediaPath } from '../media/media-path.js';
import type { MediaImage, MediaReader } from '../media/media-files.js';
import { matchesIfNoneMatch, type PreparedResponse, type ResponseFactory } from './prepared-response.js';
import type { BlogSnapshot } from './snapshot.js';

export interface MediaRouteOptions {
  current(): BlogSnapshot;
  readMedia: MediaReader;
  respond: ResponseFactory;
  notFound: PreparedResponse;
}

/** The handler of the media prefix. */
export function createMediaHandler({ current, readMedia, respond, notFound }: MediaRouteOptions): Handler {
  // The answer of an image the reader gives again unchanged (the same object) is not hashed again.
  const prepared = new WeakMap<MediaImage, PreparedResponse>();
  return async (request: RoutedRequest): Promise<Answer> => {
    const mark = request.url.indexOf('?');
    const target = parseMediaPath(mark === -1 ? request.url : request.url.slice(0, mark));
    if (!target) return notFound.answer;
    for (const folder of mediaFoldersOf(current().catalog, target.slug)) {
      const image = await readMedia(folder, target.name);
      if (!image) continue;
      // nosniff: a browser must take the bytes for the image type they were checked to be, nothing else.
      let answer = prepared.get(image);
      if (!answer) {
        answer = respond.content(image.body, image.contentType, { 'x-content-type-options': 'nosniff' });
        prepared.set(image, answer);
      }
      return matchesIfNoneMatch(request.raw.headers['if-none-match'], answer.etag!) ? answer.notModified : answer.answer;
    }
    return notFound.answer;
  };
}
