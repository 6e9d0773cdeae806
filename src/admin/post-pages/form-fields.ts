// The editor form's fields as PostFields (src/admin/posts/post-fields.ts): one name per field, tags as one
// comma-separated line, "draft" and "raw_html" as checkboxes. Browsers send text areas with CRLF; the post files keep their own.
import { localDateTimeIn } from '../posts/local-date.js';
import type { PostFields } from '../posts/post-files.js';

export const FIELD_NAMES = ['title', 'slug', 'date', 'tags', 'excerpt', 'cover', 'coverAlt', 'author', 'lang'] as const;

/**
 * The PostFields and the body a submitted editor form holds. The date is the picker's (`date_pick`) when one was
 * picked, else the text field's; with `timeZone` (a save), a local date and time is read in it (local-date.ts).
 */
export function fieldsOfForm(form: URLSearchParams, timeZone?: string): { fields: PostFields; body: string } {
  const text = (name: string) => (form.get(name) ?? '').trim();
  const date = text('date_pick') || text('date');
  return {
    fields: {
      title: text('title'),
      slug: text('slug'),
      date: (timeZone === undefined ? undefined : localDateTimeIn(date, timeZone)) ?? date,
      tags: text('tags')
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
      draft: form.get('draft') === 'on',
      excerpt: text('excerpt'),
      cover: text('cover'),
      coverAlt: text('coverAlt'),
      author: text('author'),
      lang: text('lang'),
      rawHtml: form.get('raw_html') === 'on',
    },
    body: form.get('body') ?? '',
  };
}
