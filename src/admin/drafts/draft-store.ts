// Unsaved drafts of the post editor (docs/admin.md "Posts"): what a person typed and has not saved yet, kept by
// the backend so that it survives a closed tab, a crash or another browser. A draft is never a post: it lives in
// data_dir (or PostgreSQL), never in blog.content_dir, so the blog cannot serve it. One draft per person and key:
// the post file being edited (`hello/index.md`) or `new` for a post not created yet.
import type { PostFields } from '../posts/post-files.js';

/** The key of the draft of a post not created yet. */
export const NEW_POST_DRAFT_KEY = 'new';

export interface UnsavedDraft {
  fields: PostFields;
  body: string;
  /** When the server received it, in milliseconds since the epoch. */
  savedAt: number;
}

export interface DraftStore {
  /** Keeps `draft` as `user`'s draft of `key`, replacing the one before. */
  put(user: string, key: string, draft: UnsavedDraft): Promise<void>;
  /** `user`'s draft of `key`, or undefined (none, or one that cannot be read). */
  get(user: string, key: string): Promise<UnsavedDraft | undefined>;
  /** Forgets `user`'s draft of `key`; nothing happens when there is none. */
  remove(user: string, key: string): Promise<void>;
}

const TEXT_FIELDS = ['title', 'slug', 'date', 'excerpt', 'cover', 'coverAlt', 'author', 'lang'] as const;

/** `value` as an UnsavedDraft when it has that shape (a stored record is checked before use), else undefined. */
export function unsavedDraftOf(value: unknown): UnsavedDraft | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { fields, body, savedAt } = value as Record<string, unknown>;
  if (typeof body !== 'string' || typeof savedAt !== 'number' || !Number.isFinite(savedAt)) return undefined;
  if (fields === null || typeof fields !== 'object') return undefined;
  const record = fields as Record<string, unknown>;
  if (!TEXT_FIELDS.every((name) => typeof record[name] === 'string')) return undefined;
  if (typeof record.draft !== 'boolean' || !Array.isArray(record.tags) || !record.tags.every((tag) => typeof tag === 'string')) return undefined;
  const copy = Object.fromEntries(TEXT_FIELDS.map((name) => [name, record[name] as string])) as Record<(typeof TEXT_FIELDS)[number], string>;
  return { fields: { ...copy, tags: [...(record.tags as string[])], draft: record.draft, rawHtml: record.rawHtml === true }, body, savedAt };
}
