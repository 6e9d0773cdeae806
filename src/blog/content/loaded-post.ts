// A post version as the library holds it: its front-matter fields in memory, its body in its file (read again
// when an answer needs it), its excerpt and reading time derived on first use, and its search text folded from
// the file each time it is asked for (the q index reads it once). One class, so that 100,000 posts share one
// shape and their accessors live once, on the prototype, instead of as closures on each object.
import { createHash } from 'node:crypto';
import { detach } from '../text/detach.js';
import { foldCase } from '../text/fold-case.js';
import { readBodyAgain } from './body-reader.js';
import { readingTime, resolveExcerpt } from './excerpt.js';
import type { MarkdownTools } from './markdown.js';
import type { PostVersion } from './post.js';

/** The fields of a post version that are not derived from its body. */
export type PostFields = Omit<PostVersion, 'excerpt' | 'readingTime' | 'digest' | 'body' | 'searchText'>;

/** What is derived from the body: the excerpt, the reading time and the content's digest. */
export interface DerivedFields {
  excerpt: string;
  readingTime: number;
  digest: string;
}

/** The file a post was read from, as it was then: its body is read from it again each time it is needed. */
export interface PostFile {
  path: string;
  /** The file's stamp (content/scan.ts stampOf) when the post was read. */
  stamp: string;
}

/**
 * Where a post's body comes from, and what deriving its summary fields needs: plain data, no closure (100,000
 * posts would hold two functions and their contexts each).
 */
export interface PostSource {
  /** UTF-16 offset of the body in the file text (the load cache keeps it to read the body again). */
  bodyStart: number;
  /** The file the body is read from each time (content/body-reader.ts), or the body itself (a post parsed from a text alone). */
  body: PostFile | string;
  /** The front matter's `excerpt`, which takes the place of the derived one. */
  frontMatterExcerpt: string | undefined;
  markdown: MarkdownTools;
}

/** The case-folded title and body that `q` searches (catalog/search-index.ts). */
export function foldSearchText(title: string, body: string): string {
  // One fold of the whole text gives one flat string (a concatenation would be flattened on the first search).
  return foldCase(`${title}\n${body}`);
}

export class LoadedPost implements PostVersion {
  readonly file: string;
  readonly slug: string;
  readonly lang: string;
  readonly hasLanguageSuffix: boolean;
  readonly title: string;
  readonly date: PostVersion['date'];
  readonly updated: PostVersion['updated'];
  readonly draft: boolean;
  readonly tags: string[];
  readonly allLangs: boolean;
  readonly rawHtml: boolean;
  readonly comments: boolean;
  readonly newsletter: boolean;
  readonly author: string | null;
  readonly fediverseCreator: string | null;
  readonly cover: PostVersion['cover'];
  readonly source: PostSource;
  #derived: DerivedFields | undefined;

  /** `known` carries what was derived already (kept in the load cache). */
  constructor(fields: PostFields, source: PostSource, known: { derived?: DerivedFields } = {}) {
    this.file = fields.file;
    this.slug = fields.slug;
    this.lang = fields.lang;
    this.hasLanguageSuffix = fields.hasLanguageSuffix;
    this.title = fields.title;
    this.date = fields.date;
    this.updated = fields.updated;
    this.draft = fields.draft;
    this.tags = fields.tags;
    this.allLangs = fields.allLangs;
    this.rawHtml = fields.rawHtml;
    this.comments = fields.comments;
    this.newsletter = fields.newsletter;
    this.author = fields.author;
    this.fediverseCreator = fields.fediverseCreator;
    this.cover = fields.cover;
    this.source = source;
    this.#derived = known.derived;
  }

  get body(): string {
    const { body, bodyStart } = this.source;
    return typeof body === 'string' ? body : readBodyAgain(body.path, this.file, body.stamp, bodyStart);
  }

  /**
   * Folded from the file each time, not kept: 40 MB at 10,000 posts. The q index reads it once per post version
   * and answers from its words after; the scan before the index is ready reads it once per query.
   */
  get searchText(): string {
    return foldSearchText(this.title, this.body);
  }

  /** The file and its stamp when the post was read: the same key names the same searchText on the next start. */
  get searchKey(): string | undefined {
    const { body } = this.source;
    return typeof body === 'string' ? undefined : `${this.file}\n${body.stamp}`;
  }

  get excerpt(): string {
    return this.derived().excerpt;
  }

  get readingTime(): number {
    return this.derived().readingTime;
  }

  get digest(): string {
    return this.derived().digest;
  }

  /** The excerpt and reading time if they were derived already (the load cache keeps them), without deriving. */
  get knownDerived(): DerivedFields | undefined {
    return this.#derived;
  }

  /** The excerpt and reading time need a Markdown parse of the body: done when a summary is first serialised. */
  private derived(): DerivedFields {
    if (this.#derived) return this.#derived;
    const { markdown, frontMatterExcerpt } = this.source;
    const body = this.body;
    const outline = markdown.outline(body);
    // A copy: the excerpt may be a view into the body, which is not to stay in memory (text/detach.ts).
    this.#derived = {
      excerpt: detach(resolveExcerpt(markdown, frontMatterExcerpt, body, outline.firstParagraph)),
      readingTime: readingTime(outline.words),
      digest: contentDigest(this, frontMatterExcerpt, body),
    };
    return this.#derived;
  }
}

/**
 * The digest of a version's front matter as read (every field, the excerpt it gives included) and its Markdown:
 * 22 characters of base64url SHA-256. The file's name and folder are not content: moving the file keeps it.
 */
export function contentDigest(fields: PostFields, frontMatterExcerpt: string | undefined, body: string): string {
  const { slug, lang, title, date, updated, draft, tags, allLangs, rawHtml, comments, newsletter, author, fediverseCreator, cover } = fields;
  // `newsletter` only when false: the digest of every other post stays what it was.
  const frontMatter = [slug, lang, title, date.text, updated?.text ?? null, draft, tags, allLangs, rawHtml, comments, author, fediverseCreator, cover, frontMatterExcerpt ?? null, ...(newsletter ? [] : [false])];
  return createHash('sha256').update(JSON.stringify(frontMatter)).update('\n').update(body).digest('base64url').slice(0, 22);
}
