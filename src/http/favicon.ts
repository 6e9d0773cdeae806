// GET /favicon.ico on every listener (docs/forms-api.md "HTTP details"): browsers ask every origin for it, the
// /admin pages included. A small icon cached for a month spares each of them a 404, a request line a visit, and
// the console error Chromium shows for a missing icon.
import type { Answer } from './answer.js';
import type { Route } from './route-table.js';

export const FAVICON_PATH = '/favicon.ico';

/** A 16 x 16 envelope on blue: one PNG image inside an ICO container (144 bytes). */
const ICON = Buffer.from(
  'AAABAAEAEBAAAAEAIAB6AAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAQAAAAEAgGAAAAH/P/YQAAAEFJREFUeNpjYAACeb/K/+RgBko0ww0ZXAYQCwgagMs2ogxApomRw2oAsWy8BuByMkkG4AoH2hpAUTQO0aRMaXYGAO3EMSNeBBh1AAAAAElFTkSuQmCC',
  'base64',
);

/** 30 days: the icon changes with a release at most, and a stale one costs nothing. */
export const FAVICON_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * The answer, prepared once and complete (a flat list). Any page may read it, as it may read the blog's answers
 * (docs/blog.md "HTTP details"): it is the same public picture for everyone.
 */
const ICON_ANSWER: Answer = {
  status: 200,
  headers: [
    'content-type', 'image/x-icon',
    'content-length', String(ICON.length),
    'cache-control', `public, max-age=${FAVICON_MAX_AGE_SECONDS}, immutable`,
    'access-control-allow-origin', '*',
  ],
  body: ICON,
};

/** The route a front door adds after a service's own (a service that routes the path itself keeps it). */
export const FAVICON_ROUTE: Route = {
  path: FAVICON_PATH,
  methods: { GET: () => ICON_ANSWER, HEAD: () => ICON_ANSWER },
};
