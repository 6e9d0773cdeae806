// `postbox/client` (docs/site-generators.md "The typed client"): a typed client of both listeners, for browsers and
// Node.js alike. It needs nothing but fetch: no package at run time, no `node:` module. Each function resolves to the
// answer's JSON body, or rejects with a PostboxError that carries the catalogue's `error` code.
import type {
  Accepted,
  CommentAccepted,
  CommentFields,
  CommentThread,
  ErrorBody,
  ErrorCode,
  Post,
  PostsPage,
  PostsQuery,
  SignupFields,
  SubmissionFields,
} from './api-types.js';

export type * from './api-types.js';

export interface ClientOptions {
  /** The forms listener's public address (`[server] public_url`), for submit and signup. */
  forms?: string;
  /** The blog listener's address (where `/api/blog` is answered), for the posts and comments. */
  blog?: string;
  /** The fetch to use: the global one unless given (a test's, or one with a time-out). */
  fetch?: typeof fetch;
}

/** A version of a post: the primary one without `lang`. */
export interface VersionOptions {
  lang?: string;
}

export interface PostboxClient {
  listPosts(query?: PostsQuery): Promise<PostsPage>;
  getPost(slug: string, options?: VersionOptions): Promise<Post>;
  listComments(slug: string, options?: VersionOptions): Promise<CommentThread>;
  postComment(slug: string, fields: CommentFields, options?: VersionOptions): Promise<CommentAccepted>;
  /** Sends a submission to the form at `formPath` (`/contact`). */
  submit(formPath: string, fields: SubmissionFields): Promise<Accepted>;
  /** Signs an address up at the newsletter form at `formPath` (`/newsletter`). */
  signup(formPath: string, fields: SignupFields): Promise<Accepted>;
}

/** A refused request: the answer's status, the catalogue's `error` code and the whole body (`details` of a `validation`). */
export class PostboxError extends Error {
  readonly status: number;
  /** The catalogue's code, or null when the answer was not one of Postbox's (a proxy's error page). */
  readonly error: ErrorCode | null;
  readonly body: ErrorBody | null;

  constructor(status: number, body: ErrorBody | null) {
    super(body === null ? `Postbox answered ${status}` : `Postbox answered ${status} ${body.error}`);
    this.name = 'PostboxError';
    this.status = status;
    this.error = body?.error ?? null;
    this.body = body;
  }
}

/** The client of the listeners at `options.forms` and `options.blog`. */
export function createClient(options: ClientOptions): PostboxClient {
  const send = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const readBlog = async <Body>(path: string, query: VersionOptions | PostsQuery = {}, init: RequestInit = { headers: ACCEPT_JSON }): Promise<Body> =>
    answerOf<Body>(await send(addressOf(options.blog, 'blog', path, query), init));
  const postForm = async (formPath: string, fields: object): Promise<Accepted> => {
    // `redirect: manual`: a form with `redirect_url` answers an accepted submission with a 303, which is success.
    const init: RequestInit = { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(fields), redirect: 'manual' };
    return answerOf<Accepted>(await send(addressOf(options.forms, 'forms', formPath, {}), init), { ok: true });
  };
  const postPath = (slug: string) => `/api/blog/posts/${encodeURIComponent(slug)}`;
  return {
    listPosts: (query = {}) => readBlog('/api/blog/posts', query),
    getPost: (slug, { lang } = {}) => readBlog(postPath(slug), { lang }),
    listComments: (slug, { lang } = {}) => readBlog(`${postPath(slug)}/comments`, { lang }),
    postComment: (slug, fields, { lang } = {}) => readBlog(`${postPath(slug)}/comments`, { lang }, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(fields) }),
    submit: postForm,
    signup: postForm,
  };
}

const ACCEPT_JSON = { accept: 'application/json' };
const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };

function addressOf(base: string | undefined, listener: string, path: string, query: object): string {
  if (base === undefined) throw new TypeError(`createClient({ ${listener} }) is needed for ${path}`);
  const url = new URL(`${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.href;
}

/** The body of a successful answer; a redirect (a 303, or a browser's opaque one) is `redirected`. */
async function answerOf<Body>(response: Response, redirected?: Body): Promise<Body> {
  if (redirected !== undefined && (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400))) return redirected;
  if (response.ok) return (await response.json()) as Body;
  throw new PostboxError(response.status, await errorBodyOf(response));
}

async function errorBodyOf(response: Response): Promise<ErrorBody | null> {
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string' ? (body as ErrorBody) : null;
  } catch {
    return null;
  }
}
