// The front-matter keys the editor shows (docs/admin.md "Posts"; docs/blog.md "Front matter"), read from a
// file's data, checked with the blog's own rules, and turned into the key edits of a save.
import { normalizeDate } from '../../blog/content/dates.js';
import { checkSlug } from '../../blog/content/file-name.js';
import { frontMatterSchema } from '../../blog/content/front-matter-schema.js';
import { canonicalLanguage } from '../../blog/content/language.js';
import type { FrontMatterValue, KeyEdit } from './front-matter-edit.js';

/** The form's fields. An empty string means "no such key": the key is removed, or not written. */
export interface PostFields {
  title: string;
  /** The front-matter `slug` override; empty: the slug is the file name. */
  slug: string;
  /** `YYYY-MM-DD` or RFC 3339 with an offset, as written. */
  date: string;
  tags: string[];
  draft: boolean;
  excerpt: string;
  /** The cover's URL or path, and its alt text (written as a table `{src, alt}` when there is one). */
  cover: string;
  coverAlt: string;
  author: string;
  /** The front-matter `lang` override; empty: the file name's language, else the site's. */
  lang: string;
  /** The front-matter `raw_html` mark: the HTML is written through unsanitised (raw-html.ts, owners only). */
  rawHtml: boolean;
}

export interface FieldProblem {
  field: keyof PostFields | 'file';
  message: string;
}

/** The editor's fields of a file's front-matter data; values of the wrong type are shown as best they can be. */
export function readFields(data: Record<string, unknown>): PostFields {
  const cover = data.cover;
  const coverTable = typeof cover === 'object' && cover !== null ? (cover as Record<string, unknown>) : undefined;
  return {
    title: textOf(data.title),
    slug: textOf(data.slug),
    date: dateText(data.date),
    tags: Array.isArray(data.tags) ? data.tags.map(textOf) : [],
    draft: data.draft === true,
    excerpt: textOf(data.excerpt),
    cover: coverTable ? textOf(coverTable.src) : textOf(cover),
    coverAlt: coverTable ? textOf(coverTable.alt) : '',
    author: textOf(data.author),
    lang: textOf(data.lang),
    rawHtml: data.raw_html === true,
  };
}

/** Every problem of `fields` by the blog's rules (front-matter-schema.ts, dates.ts, file-name.ts, language.ts). */
export function checkFields(fields: PostFields): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const check = (field: keyof PostFields, key: keyof typeof frontMatterSchema.shape, value: unknown): void => {
    const result = frontMatterSchema.shape[key].safeParse(value);
    if (!result.success) problems.push({ field, message: `${key} ${result.error.issues[0]!.message}` });
  };
  check('title', 'title', fields.title);
  check('tags', 'tags', fields.tags);
  if (fields.date.trim() === '') problems.push({ field: 'date', message: 'date is required' });
  else if (!normalizeDate(fields.date.trim())) {
    problems.push({ field: 'date', message: 'date must be YYYY-MM-DD or an RFC 3339 date-time with an offset' });
  }
  const slug = fields.slug.trim();
  const slugProblem = slug === '' ? null : checkSlug(slug);
  if (slugProblem) problems.push({ field: 'slug', message: slugProblem });
  if (fields.lang.trim() !== '' && !canonicalLanguage(fields.lang.trim())) {
    problems.push({ field: 'lang', message: `lang "${fields.lang}" is not a language code such as "en" or "pt-BR"` });
  }
  if (fields.cover.trim() === '' && fields.coverAlt.trim() !== '') {
    problems.push({ field: 'cover', message: 'cover is required when the cover has an alt text' });
  }
  return problems;
}

/** The key edits that turn `before` into `after`: a field left as it was is not touched at all. */
export function diffFields(before: PostFields, after: PostFields): KeyEdit[] {
  const edits: KeyEdit[] = [];
  const text = (key: string, old: string, value: string): void => {
    if (old.trim() !== value.trim()) edits.push({ key, value: value.trim() === '' ? undefined : value.trim() });
  };
  text('title', before.title, after.title);
  if (before.date.trim() !== after.date.trim()) {
    const date = normalizeDate(after.date.trim());
    edits.push({ key: 'date', value: date ? { date: date.text } : after.date.trim() });
  }
  if (before.draft !== after.draft) edits.push({ key: 'draft', value: after.draft ? true : undefined });
  const tags = after.tags.map((tag) => tag.trim()).filter((tag) => tag !== '');
  if (tags.join('\n') !== before.tags.join('\n')) edits.push({ key: 'tags', value: tags.length > 0 ? tags : undefined });
  text('lang', before.lang, after.lang);
  text('author', before.author, after.author);
  if (before.cover.trim() !== after.cover.trim() || before.coverAlt.trim() !== after.coverAlt.trim()) {
    edits.push({ key: 'cover', value: coverValue(after) });
  }
  text('excerpt', before.excerpt, after.excerpt);
  text('slug', before.slug, after.slug);
  if (before.rawHtml !== after.rawHtml) edits.push({ key: 'raw_html', value: after.rawHtml ? true : undefined });
  return edits;
}

/** Empty fields for a new post. */
export function emptyFields(): PostFields {
  return { title: '', slug: '', date: '', tags: [], draft: false, excerpt: '', cover: '', coverAlt: '', author: '', lang: '', rawHtml: false };
}

function coverValue(fields: PostFields): FrontMatterValue | undefined {
  const src = fields.cover.trim();
  const alt = fields.coverAlt.trim();
  if (src === '') return undefined;
  return alt === '' ? src : { src, alt };
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : String(value);
}

function dateText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return normalizeDate(value)?.text ?? (value instanceof Date ? value.toISOString() : String(value));
}
