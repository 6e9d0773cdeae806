// "Preview": the post's HTML from the blog's own renderer, shown in a sandboxed frame (post-editor-page.tsx).
// Images beside a post in a folder are inlined as data: URLs: the sandboxed frame has no origin of its own, so
// it could neither fetch them from /admin (no session cookie goes with its requests) nor from the public media
// URL (which serves published posts only). Only images the content check recognizes are inlined.
import { randomBytes } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { detectImageType } from '../../kit/image-type.js';
import type { MediaReader } from '../../blog/media/media-files.js';
import { isInsideContentDir } from '../posts/post-path.js';

export interface PreviewOptions {
  contentDir: string;
  /**
   * The blog's renderer: Markdown to HTML, relative links to files beside the post prefixed with `mediaBase`,
   * sanitised as the blog does unless `rawHtml` (docs/blog.md "Raw HTML").
   */
  render(body: string, mediaBase?: string | null, rawHtml?: boolean): string;
  /** Images larger than this are not inlined. */
  maxImageBytes: number;
  /** Where the images beside a post are read from when not from content_dir (docs/blog.md "Media in storage"). */
  readStoredImage?: MediaReader;
}

/** A post file in a folder of its own (`<slug>/index.md`, `<slug>/index.<lang>.md`) has files beside it. */
function folderOf(file: string | undefined): string | undefined {
  // The file comes from the form: a hidden folder, "." or ".." is never a post's.
  return file !== undefined && /^[^/.][^/]*\/index(?:\.[^/.]+)?\.md$/.test(file) ? file.slice(0, file.indexOf('/')) : undefined;
}

/** The preview of `body`; its HTML is sanitised unless `rawHtml` (an owner's post marked `raw_html`). */
export function createPreviewRenderer(options: PreviewOptions): (body: string, file: string | undefined, rawHtml?: boolean) => Promise<string> {
  return async (body, file, rawHtml = false) => {
    const folder = folderOf(file);
    if (folder === undefined) return options.render(body, null, rawHtml);
    // A prefix no post can contain by chance marks the links the renderer resolved to files beside the post.
    const marker = `postbox-preview-${randomBytes(12).toString('hex')}/`;
    const html = options.render(body, marker, rawHtml);
    const names = new Set<string>();
    const pattern = new RegExp(`${marker}([^"'\\s<>?#]*)`, 'g');
    for (const match of html.matchAll(pattern)) names.add(match[1] ?? '');
    const inlined = new Map<string, string>();
    for (const name of names) inlined.set(name, await imageDataUrl(options, folder, name));
    return html.replace(pattern, (_whole, name: string) => inlined.get(name) ?? '#');
  };
}

async function imageDataUrl(options: PreviewOptions, folder: string, encodedName: string): Promise<string> {
  let name: string;
  try {
    name = decodeURIComponent(encodedName);
  } catch {
    return '#';
  }
  if (name === '' || name.startsWith('.') || /[/\\]/.test(name)) return '#';
  if (options.readStoredImage) {
    const image = await options.readStoredImage(folder, name).catch(() => null);
    return image && image.body.length <= options.maxImageBytes ? `data:${image.contentType};base64,${image.body.toString('base64')}` : '#';
  }
  try {
    const root = await realpath(path.join(options.contentDir, folder));
    // A symlinked folder pointing out of content_dir shows nothing.
    if (!(await isInsideContentDir(options.contentDir, root, true))) return '#';
    const file = await realpath(path.join(root, name));
    if (path.dirname(file) !== root) return '#';
    const bytes = await readFile(file);
    const type = bytes.length <= options.maxImageBytes ? detectImageType(bytes) : null;
    return type ? `data:${type.mediaType};base64,${bytes.toString('base64')}` : '#';
  } catch {
    return '#';
  }
}
