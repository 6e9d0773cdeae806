// The front-matter keys of docs/blog.md "Front matter" and their types; unknown keys are ignored, since the
// same files often feed a static site generator with keys of its own.
import { z } from 'zod';

const text = z.string();
const dateValue = z.union([z.string(), z.date()], { error: 'must be a date' });

export const frontMatterSchema = z.object({
  title: z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).trim().min(1, 'must not be empty'),
  date: z.union([z.string(), z.date()], { error: (issue) => (issue.input === undefined ? 'is required' : 'must be a date') }),
  updated: dateValue.optional(),
  draft: z.boolean({ error: 'must be true or false' }).default(false),
  tags: z.array(text.trim().min(1, 'must not be empty'), { error: 'must be a list of strings' }).default([]),
  lang: text.optional(),
  all_langs: z.boolean({ error: 'must be true or false' }).default(false),
  // docs/blog.md "Raw HTML": the post's HTML is written through as it is, scripts included.
  raw_html: z.boolean({ error: 'must be true or false' }).default(false),
  // docs/comments.md: `comments = false` closes the post's comments.
  comments: z.boolean({ error: 'must be true or false' }).default(true),
  // docs/newsletter.md "Automations": `newsletter = false` keeps the post out of the automations' mails.
  newsletter: z.boolean({ error: 'must be true or false' }).default(true),
  author: text.optional(),
  fediverse_creator: text.optional(),
  cover: z
    .union([text.min(1), z.object({ src: text.min(1), alt: text.optional() })], {
      error: 'must be a URL or path, or a table {src, alt}',
    })
    .optional(),
  excerpt: text.optional(),
  slug: text.optional(),
});

export type FrontMatter = z.output<typeof frontMatterSchema>;

/** "title is required; tags must be a list of strings": every problem, each named by its key. */
export function describeFrontMatterIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const key = issue.path.map(String).join('.');
      return key ? `${key} ${issue.message}` : issue.message;
    })
    .join('; ');
}

export type FrontMatterCheck = { success: true; data: FrontMatter } | { success: false; error: z.ZodError };

/**
 * frontMatterSchema.safeParse, with a plain check in front for the usual front matter: every start checks every
 * post, and zod's first thousands of parses, before the engine has optimised them, cost some 0.2 s at 10,000
 * posts. Whatever the plain check is not sure of (any invalid value, an unusual object) goes to zod, which
 * gives the answer and the messages; test/blog/front-matter-check.test.ts holds the two to the same answers.
 */
export function checkFrontMatter(data: Record<string, unknown>): FrontMatterCheck {
  const plain = plainFrontMatter(data);
  return plain ? { success: true, data: plain } : frontMatterSchema.safeParse(data);
}

const OPTIONAL_TEXT = ['lang', 'author', 'fediverse_creator', 'excerpt', 'slug'] as const;

/** The schema's output for `data` when it is plainly valid; undefined when zod should judge it. */
export function plainFrontMatter(data: Record<string, unknown>): FrontMatter | undefined {
  const { title, date, updated, draft = false, tags = [], all_langs: allLangs = false, raw_html: rawHtml = false, comments = true, newsletter = true, cover } = data;
  if (typeof title !== 'string') return undefined;
  const trimmedTitle = title.trim();
  if (trimmedTitle === '' || !isDateValue(date) || (updated !== undefined && !isDateValue(updated))) return undefined;
  if (typeof draft !== 'boolean' || typeof allLangs !== 'boolean' || typeof rawHtml !== 'boolean' || typeof comments !== 'boolean' || typeof newsletter !== 'boolean' || !Array.isArray(tags)) return undefined;
  const trimmedTags: string[] = [];
  for (const tag of tags as unknown[]) {
    if (typeof tag !== 'string' || tag.trim() === '') return undefined;
    trimmedTags.push(tag.trim());
  }
  const result: FrontMatter = { title: trimmedTitle, date, draft, tags: trimmedTags, all_langs: allLangs, raw_html: rawHtml, comments, newsletter };
  if (updated !== undefined) result.updated = updated;
  for (const key of OPTIONAL_TEXT) {
    const value = data[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') return undefined;
    result[key] = value;
  }
  if (typeof cover === 'string') {
    if (cover === '') return undefined;
    result.cover = cover;
  } else if (cover !== undefined) {
    // A table {src, alt}: plain objects only (YAML and TOML give no others), unknown keys dropped as zod drops them.
    if (typeof cover !== 'object' || cover === null || ![Object.prototype, null].includes(Object.getPrototypeOf(cover))) return undefined;
    const { src, alt } = cover as Record<string, unknown>;
    if (typeof src !== 'string' || src === '' || (alt !== undefined && typeof alt !== 'string')) return undefined;
    result.cover = 'alt' in cover ? { src, alt } : { src };
  }
  return result;
}

function isDateValue(value: unknown): value is string | Date {
  return typeof value === 'string' || (value instanceof Date && !Number.isNaN(value.getTime()));
}
