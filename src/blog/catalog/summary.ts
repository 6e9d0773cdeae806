// The JSON shapes of blog-api.md "Post summary" and "Post detail", with the effective author and
// fediverse_creator (the post's, else the site's, else null; contract section 4).
import type { SiteConfig } from '../../config/schema.js';
import type { PostCover, PostVersion } from '../content/post.js';

export interface PostSummary {
  slug: string;
  title: string;
  excerpt: string;
  date: string;
  lang: string;
  tags: string[];
  author: string | null;
  fediverse_creator: string | null;
  cover: PostCover | null;
  reading_time: number;
  translations: Record<string, string>;
  url: string;
}

export interface PostDetail extends PostSummary {
  body: string;
  html: string;
}

/** The summary of `post`; `translations` maps the slug's other published languages to their API URLs. */
export function createSummary(post: PostVersion, site: SiteConfig, primary: boolean, translations: Record<string, string>): PostSummary {
  const slug = encodeURIComponent(post.slug);
  return {
    slug: post.slug,
    title: post.title,
    excerpt: post.excerpt,
    date: post.date.day,
    lang: post.lang,
    tags: post.tags,
    author: post.author ?? (site.author || null),
    fediverse_creator: post.fediverseCreator ?? site.fediverse_creator ?? null,
    cover: post.cover,
    reading_time: post.readingTime,
    translations,
    url: primary ? `/api/blog/posts/${slug}` : `/api/blog/posts/${slug}?lang=${encodeURIComponent(post.lang)}`,
  };
}

/** The detail: the summary plus the raw Markdown and the rendered HTML. */
export function createDetail(summary: PostSummary, post: PostVersion): PostDetail {
  return { ...summary, body: post.body, html: post.html };
}
