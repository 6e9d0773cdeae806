// What `postbox comments import` adds (docs/comments.md "Import and export"), decided without I/O: each comment of
// an export matched to a published post version by its page's address on site.base_url (scheme and a trailing slash
// aside), given an id derived from the source's own (so that a second run finds it already there), published, and
// its thread kept (a reply's parent is the imported comment it answered).
import { createHash } from 'node:crypto';
import type { CommentedVersion, StoredComment } from '../comment-store.js';
import type { ImportFormat, SourceComment } from './import-formats.js';

/** A published post version and its address. */
export interface ImportTarget extends CommentedVersion {
  url: string;
}

export interface ImportPlan {
  /** The comments to add, oldest first. */
  added: StoredComment[];
  /** Already imported by an earlier run. */
  known: number;
  spam: number;
  deleted: number;
  unapproved: number;
  /** On a page that is no published post. */
  unmatched: number;
}

/** An address compared as a post's: host and path, without scheme, query, fragment or trailing slash. */
export function comparableUrl(address: string): string {
  try {
    const url = new URL(address);
    return `${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return address.replace(/^[a-z]+:\/\//i, '').replace(/[?#].*$/, '').replace(/\/+$/, '').toLowerCase();
  }
}

/** The id of an imported comment: 20 hex characters derived from its source and id. */
export function importedIdOf(format: ImportFormat, sourceId: string): string {
  return createHash('sha256').update(`${format}\n${sourceId}`).digest('hex').slice(0, 20);
}

/** Decides what to add of `comments`, given the posts and the ids already stored. */
export function planImport(
  format: ImportFormat,
  comments: readonly SourceComment[],
  targets: readonly ImportTarget[],
  existingIds: ReadonlySet<string>,
  toHtml: (html: string) => { html: string; text: string },
): ImportPlan {
  const byUrl = new Map(targets.map((target) => [comparableUrl(target.url), target]));
  const plan: ImportPlan = { added: [], known: 0, spam: 0, deleted: 0, unapproved: 0, unmatched: 0 };
  const imported = new Map<string, CommentedVersion>();
  const ordered = [...comments].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  for (const comment of ordered) {
    if (comment.skip) {
      plan[comment.skip] += 1;
      continue;
    }
    const target = byUrl.get(comparableUrl(comment.pageUrl));
    if (!target) {
      plan.unmatched += 1;
      continue;
    }
    const id = importedIdOf(format, comment.sourceId);
    const version = { slug: target.slug, lang: target.lang };
    imported.set(id, version);
    if (existingIds.has(id)) {
      plan.known += 1;
      continue;
    }
    const parentId = comment.parentSourceId === null ? null : importedIdOf(format, comment.parentSourceId);
    const parentVersion = parentId === null ? undefined : imported.get(parentId);
    const { html, text } = toHtml(comment.html);
    plan.added.push({
      ...version,
      id,
      // A reply whose comment was skipped or is on another page starts a thread of its own.
      parent: parentVersion && parentVersion.slug === version.slug && parentVersion.lang === version.lang ? parentId : null,
      author: { name: comment.name.slice(0, 100), url: comment.url && /^https?:\/\//i.test(comment.url) ? comment.url : null },
      email: comment.email,
      text,
      html,
      createdAt: comment.createdAt,
      status: 'published',
      kind: 'comment',
    });
  }
  return plan;
}

/** The summary line of a run. */
export function describeImport(plan: ImportPlan): string {
  return `imported ${plan.added.length}, already there ${plan.known}, skipped ${plan.spam} spam, ${plan.deleted} deleted, ${plan.unapproved} not approved, ${plan.unmatched} on no published post`;
}
