// A webmention checked against its source (docs/comments.md "Webmentions", the Webmention Recommendation section
// 3.2.2): the source is fetched; a source that is gone (410) or no longer links to the target takes its earlier
// webmention away; otherwise its h-entry becomes a comment of the target post, through the content rules and the
// moderation that comments go through, or updates the comment the same source made before.
import type { Clock } from '../../ports.js';
import type { CommentedVersion, CommentStore, StoredComment } from '../comment-store.js';
import { statusOfNewComment, type Moderation } from '../moderation.js';
import { PageRefused, type FetchPage } from './fetch-page.js';
import { linksOf, readSourceEntry } from './webmention-source.js';

export interface VerifySettings {
  moderation: Moderation;
  spamAction: 'quarantine' | 'reject';
}

export interface VerifyDeps {
  store: CommentStore;
  fetchPage: FetchPage;
  /** The content rules of [blog.comments.spam] (no proof of work: a webmention comes from a server). */
  contentRules(submission: { name: string; email: string; message: string }): string[];
  /** Content HTML from the source, cut down to what a comment may hold. */
  sanitize(html: string): string;
  /** Text as comment HTML, for a source whose content has no markup. */
  render(text: string): string;
  createId(): string;
  clock: Clock;
}

/** A webmention to check: its source, its target as a post URL, and the post version the target is. */
export interface ReceivedWebmention {
  source: string;
  target: string;
  post: CommentedVersion;
}

/** What came of it, as its status page shows it. */
export type VerifyOutcome = { status: 'accepted'; commentId: string } | { status: 'refused'; reason: string };

/** Checks one webmention and keeps, updates or removes its comment. */
export async function verifyWebmention(settings: VerifySettings, deps: VerifyDeps, mention: ReceivedWebmention): Promise<VerifyOutcome> {
  const { source, target, post } = mention;
  const earlier = (await deps.store.listVersion(post)).find((comment) => comment.source === source);
  const forget = async (reason: string): Promise<VerifyOutcome> => {
    if (earlier) await deps.store.remove(post, earlier.id);
    return { status: 'refused', reason };
  };
  let page;
  try {
    page = await deps.fetchPage(source);
  } catch (error) {
    if (error instanceof PageRefused) return { status: 'refused', reason: error.reason };
    throw error;
  }
  if (page.status === 410) return forget('The source is gone (410).');
  if (page.status < 200 || page.status > 299) return { status: 'refused', reason: `The source answered ${page.status}.` };
  if (!linksOf(page.body, page.url).includes(target)) return forget('The source does not link to the target.');

  const entry = readSourceEntry(page.body, source, target);
  const reasons = deps.contentRules({ name: entry.author.name, email: '', message: entry.text });
  if (reasons.length > 0 && settings.spamAction === 'reject') return forget('Taken for spam.');
  const host = new URL(source).host;
  const trusted = settings.moderation === 'first' && reasons.length === 0 && (earlier?.status === 'published' || (await isTrustedHost(deps.store, host)));
  const status = statusOfNewComment(settings.moderation, reasons.length > 0, trusted);
  const comment: StoredComment = {
    id: earlier?.id ?? deps.createId(),
    slug: post.slug,
    lang: post.lang,
    parent: null,
    author: entry.author,
    email: null,
    text: entry.text,
    html: entry.html === null ? (entry.text === '' ? '' : deps.render(entry.text)) : deps.sanitize(entry.html),
    createdAt: earlier?.createdAt ?? new Date(deps.clock()).toISOString(),
    status,
    kind: entry.kind,
    source,
    ...(reasons.length > 0 ? { reasons } : {}),
  };
  if (earlier) await deps.store.remove(post, earlier.id);
  await deps.store.add(comment);
  return { status: 'accepted', commentId: comment.id };
}

/** Under moderation = "first": whether a webmention from `host` was approved (published) before. */
async function isTrustedHost(store: CommentStore, host: string): Promise<boolean> {
  return (await store.listAll()).some((comment) => comment.source !== undefined && comment.status === 'published' && hostOf(comment.source) === host);
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
