// `postbox comments import --from disqus|wordpress|remark42 FILE` and `postbox comments export` (docs/comments.md
// "Import and export"). An import adds the published comments of an export to the posts they were written on, each
// under an id derived from the source's, so a second run adds nothing; it may run beside `serve`, which notices the
// changed files (src/adapters/files/comment-files.ts) or shares the PostgreSQL tables.
import { readFile } from 'node:fs/promises';
import type * as HtmlToText from 'html-to-text';
import type { Backend } from '../adapters/backend.js';
import { createBlogContent } from '../blog/blog-content.js';
import { publicPostUrl } from '../blog/feeds/public-url.js';
import type { CommentStore, StoredComment } from '../comments/comment-store.js';
import { describeImport, planImport, type ImportTarget } from '../comments/import/comment-import.js';
import { IMPORT_FORMATS, readSourceComments, type ImportFormat } from '../comments/import/import-formats.js';
import { lazyModule } from '../kit/lazy-module.js';
import { sanitizeCommentHtml } from '../comments/render-comment.js';
import type { Config } from '../config/config.js';
import { createSilentLogger } from '../kit/log.js';

const htmlToText = lazyModule<typeof HtmlToText>('html-to-text');

export const COMMENTS_USAGE = `  postbox comments import --from disqus|wordpress|remark42 FILE [--config FILE]
                                  add the published comments of an export to the posts they
                                  were written on (matched by address on site.base_url)
  postbox comments export [--config FILE]
                                  every comment as JSON on stdout
`;

export type CommentsCommand = { action: 'import'; from: ImportFormat; file: string } | { action: 'export' };

export interface CommentsCommandIo {
  out(text: string): void;
  error(text: string): void;
}

/** `args` and `--from` as a CommentsCommand, or what is wrong with them; nothing is read yet. */
export function parseCommentsCommand(args: readonly string[], options: { from: string | undefined }): CommentsCommand | { problem: string } {
  const [action, file, ...rest] = args;
  if (rest.length > 0) return { problem: `unexpected "${rest.join(' ')}"` };
  if (action === 'export') {
    if (file !== undefined) return { problem: 'comments export takes no FILE' };
    return options.from === undefined ? { action } : { problem: '--from goes with comments import' };
  }
  if (action !== 'import') return { problem: action === undefined ? 'comments needs import or export' : `unknown comments command "${action}"` };
  if (!IMPORT_FORMATS.includes(options.from as ImportFormat)) return { problem: `comments import needs --from ${IMPORT_FORMATS.join('|')}` };
  if (file === undefined) return { problem: 'comments import needs the FILE to read' };
  return { action, from: options.from as ImportFormat, file };
}

export async function runCommentsCommand(command: CommentsCommand, config: Config, backend: Pick<Backend, 'comments'>, io: CommentsCommandIo): Promise<number> {
  if (command.action === 'export') {
    const comments = await backend.comments.listAll();
    io.out(`${JSON.stringify({ comments }, null, 2)}\n`);
    return 0;
  }
  if (!config.blog || !config.site) {
    io.error('postbox: comments import needs [site] and [blog]: comments are matched to the blog\'s posts\n');
    return 1;
  }
  let content: string;
  try {
    content = await readFile(command.file, 'utf8');
  } catch (error) {
    io.error(`postbox: ${command.file}: ${(error as NodeJS.ErrnoException).code ?? 'cannot be read'}\n`);
    return 1;
  }
  let source;
  try {
    source = await readSourceComments(command.from, content);
  } catch {
    io.error(`postbox: ${command.file} is not a ${command.from} export\n`);
    return 1;
  }
  const targets = await publishedTargets(config);
  const existing = new Set((await backend.comments.listAll()).map((comment) => comment.id));
  const plan = planImport(command.from, source, targets, existing, cleanImportedHtml);
  await addAll(backend.comments, plan.added);
  io.out(`${describeImport(plan)}\n`);
  // Kept all the same, for the day they are turned on; said, so nobody looks for them on the site meanwhile.
  if (!config.blog.comments.enabled) io.error('postbox: [blog.comments] is not enabled in this configuration: the imported comments are kept, and shown once it is\n');
  return 0;
}

/** The published post versions that take comments, with their public addresses. */
async function publishedTargets(config: Config): Promise<ImportTarget[]> {
  const content = await createBlogContent({ site: config.site!, blog: config.blog! }, { logger: createSilentLogger(), rescanIntervalMs: 0 });
  try {
    const { catalog } = content.current();
    return catalog.published.filter((entry) => entry.post.comments).map((entry) => ({ slug: entry.post.slug, lang: entry.post.lang, url: publicPostUrl(catalog, entry) }));
  } finally {
    await content.close();
  }
}

/** An imported comment's HTML as a comment may hold it, and its text; plain text gets its paragraphs and breaks. */
function cleanImportedHtml(html: string): { html: string; text: string } {
  const marked = /<(p|br|div)\b/i.test(html)
    ? html
    : html
        .split(/\n\s*\n/)
        .map((paragraph) => `<p>${paragraph.trim().replace(/\n/g, '<br>\n')}</p>`)
        .join('\n');
  return { html: sanitizeCommentHtml(marked), text: htmlToText().convert(marked, { wordwrap: false }) };
}

async function addAll(store: CommentStore, comments: readonly StoredComment[]): Promise<void> {
  for (const comment of comments) await store.add(comment);
}
