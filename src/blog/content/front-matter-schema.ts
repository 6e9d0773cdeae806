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
