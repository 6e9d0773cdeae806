// The JSON bodies of the blog API (docs/blog.md "What the API answers") as schemas for GET /openapi.json
// (docs/openapi.md). A summary and a detail are checked against the types the catalog answers with (describing):
// a field added to one of them does not compile until it is described here.
import { describing } from '../../http/openapi/exact-schema.js';
import { z } from '../../http/openapi/openapi-zod.js';
import type { PostDetail, PostSummary } from '../catalog/summary.js';
import { FEED_LENGTH } from '../feeds/rss.js';
import type { TagCount } from '../catalog/tags.js';

const nullableText = (description: string) => z.string().nullable().openapi({ description });

export const siteBody = z
  .strictObject({
    title: z.string(),
    description: z.string(),
    base_url: z.string().openapi({ description: '`[site] base_url`' }),
    language: z.string(),
    author: z.string(),
    fediverse_creator: nullableText('A fediverse handle `@user@host`, or null.'),
  })
  .openapi('Site', { description: 'The `[site]` section.' });

const summaryShape = {
  slug: z.string(),
  title: z.string(),
  excerpt: z.string().openapi({ description: 'Plain text of at most 280 characters.' }),
  date: z.string().openapi({ format: 'date', description: 'The publication day, `YYYY-MM-DD` as written.' }),
  lang: z.string(),
  tags: z.array(z.string()),
  author: nullableText('The post\'s author, else the site\'s, else null.'),
  fediverse_creator: nullableText('The post\'s fediverse handle, else the site\'s, else null.'),
  cover: z.strictObject({ url: z.string().openapi({ description: 'An absolute URL.' }), alt: z.string().nullable() }).nullable(),
  reading_time: z.number().int().min(1).openapi({ description: 'Minutes.' }),
  translations: z.record(z.string(), z.string()).openapi({ description: 'The API URL of every other published language, by language.' }),
  digest: z.string().openapi({ description: 'A digest of this version\'s front matter and Markdown: another digest, another content (docs/blog.md "What the API answers").' }),
  translation_digests: z.record(z.string(), z.string()).openapi({ description: 'The digest of every other published language, by language.' }),
  url: z.string().openapi({ description: 'The API URL of this version.' }),
};

export const summaryBody = describing<PostSummary>()(z.strictObject(summaryShape).openapi('PostSummary', { description: 'A post in a list.' }));

export const detailBody = describing<PostDetail>()(
  z
    .strictObject({ ...summaryShape, body: z.string().openapi({ description: 'The Markdown.' }), html: z.string().openapi({ description: 'The rendered HTML.' }) })
    .openapi('PostDetail', { description: 'A post: its summary, its Markdown and its HTML.' }),
);

export const postsBody = z
  .strictObject({
    page: z.number().int().min(1),
    page_size: z.number().int().min(1),
    total: z.number().int().min(0),
    has_next: z.boolean(),
    has_prev: z.boolean(),
    posts: z.array(summaryBody),
  })
  .openapi('PostsPage', { description: 'One page of posts, newest first.' });

export const tagsBody = z
  .strictObject({ tags: z.array(describing<TagCount>()(z.strictObject({ name: z.string(), count: z.number().int().min(1) }))) })
  .openapi('Tags', { description: 'The tags of published primary versions, most used first.' });

export const healthBody = z.strictObject({ status: z.literal('ok'), posts: z.number().int().min(0).openapi({ description: 'Published versions.' }) });

/** JSON Feed 1.1 (docs/blog.md "Feeds and sitemap"). */
export const jsonFeedBody = z
  .strictObject({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    home_page_url: z.string(),
    feed_url: z.string(),
    description: z.string(),
    language: z.string(),
    items: z.array(
      z.strictObject({
        id: z.string(),
        url: z.string(),
        title: z.string(),
        content_html: z.string(),
        summary: z.string(),
        date_published: z.string().openapi({ format: 'date-time' }),
        date_modified: z.string().optional().openapi({ format: 'date-time' }),
        tags: z.array(z.string()),
        image: z.string().optional(),
        authors: z.array(z.strictObject({ name: z.string() })).optional(),
      }),
    ),
  })
  .openapi('JsonFeed', { description: `JSON Feed 1.1 of the ${FEED_LENGTH} newest posts.` });
