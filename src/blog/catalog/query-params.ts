// The parameters of GET /api/blog/posts and their bounds (docs/blog.md "/posts parameters"), in one place: the
// query parser (query.ts) checks requests against them, and GET /openapi.json describes them from them
// (docs/openapi.md), so that a changed bound changes both.

/** The parameters the list reads; any other is ignored (cache-busting parameters are common). */
export const POSTS_QUERY_PARAMETERS = ['lang', 'tag', 'q', 'page', 'limit'] as const;

export type PostsQueryParameter = (typeof POSTS_QUERY_PARAMETERS)[number];

/** The first page, and the default one. */
export const FIRST_PAGE = 1;

export const DEFAULT_PAGE_SIZE = 20;
export const MIN_PAGE_SIZE = 1;
export const MAX_PAGE_SIZE = 100;

/** At most this many digits in `page` and `limit`: a longer number is no page (and no exact JavaScript number). */
export const WHOLE_NUMBER_DIGITS = 15;

/** Digits only: "1.5", "-1", "abc", "" and "+2" are not page numbers. */
export const WHOLE_NUMBER = new RegExp(`^\\d{1,${WHOLE_NUMBER_DIGITS}}$`);

/** The largest number WHOLE_NUMBER lets through. */
export const LARGEST_WHOLE_NUMBER = 10 ** WHOLE_NUMBER_DIGITS - 1;
