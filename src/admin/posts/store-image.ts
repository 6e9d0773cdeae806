// Images uploaded beside a post (docs/admin.md "Posts", "Upload image"): checked by content and size, stored under a
// clean name in the post's folder (or under that folder's name in the media store: docs/blog.md "Media in storage"),
// never over an existing file. A `<slug>.md` post first becomes `<slug>/index.md`,
// its translations `<slug>.<lang>.md` coming along as `<slug>/index.<lang>.md`.
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MediaStore } from '../../blog/media/media-store.js';
import { parsePostFileName } from '../../blog/content/file-name.js';
import { createFileExclusively, syncFolder } from '../../kit/files/atomic-file.js';
import { findPost, mayChangeText, type PathRefusal, type PostFilesContext } from './context.js';
import { imageFileName, numberedFileName } from './image-name.js';
import { detectImageType } from '../../kit/image-type.js';

export type StoreImageOutcome =
  | {
      ok: true;
      kind: 'stored';
      /** The image's file name beside the post, and the Markdown that shows it. */
      fileName: string;
      markdown: string;
      mediaType: string;
      /** The post's file now (`hello.md` becomes `hello/index.md`), and every file moved to get there. */
      postFile: string;
      moved: Array<{ from: string; to: string }>;
    }
  | { ok: false; kind: 'too_large'; maxBytes: number }
  | { ok: false; kind: 'not_an_image' }
  /** `<slug>/` exists with post files of its own (or is no folder): the post cannot move into it. */
  | { ok: false; kind: 'folder_taken'; folder: string }
  | PathRefusal;

/** Stores `bytes` beside the post `postFile`, under a name made from `originalName`. */
export async function storeImage(
  context: PostFilesContext,
  postFile: string,
  originalName: string,
  bytes: Uint8Array,
  maxBytes: number,
): Promise<StoreImageOutcome> {
  // The post first: one the person may not change is refused whatever was sent.
  const found = await findPost(context, postFile);
  if (!found.ok) return found;
  if (bytes.length > maxBytes) return { ok: false, kind: 'too_large', maxBytes };
  const type = detectImageType(bytes);
  if (!type) return { ok: false, kind: 'not_an_image' };
  const post = found.post.path;

  let folder: string;
  let moved: Array<{ from: string; to: string }> = [];
  let newPostFile = post.relative;
  if (post.relative.includes('/')) {
    folder = post.relative.split('/')[0]!;
  } else {
    folder = post.name.slug;
    const migration = await moveIntoFolder(context, folder);
    if (!migration.ok) return migration;
    moved = migration.moved;
    newPostFile = moved.find((move) => move.from === post.relative)!.to;
  }
  const name = imageFileName(originalName, type.extension);
  const fileName = context.media ? await writeNewObject(context.media, folder, name, bytes) : await writeNewFile(path.join(context.contentDir, folder), name, bytes);
  return { ok: true, kind: 'stored', fileName, markdown: `![](${fileName})`, mediaType: type.mediaType, postFile: newPostFile, moved };
}

/** Moves `<slug>.md` and every `<slug>.<lang>.md` into `<slug>/` as `index.md` and `index.<lang>.md`. */
async function moveIntoFolder(
  context: PostFilesContext,
  slug: string,
): Promise<{ ok: true; moved: Array<{ from: string; to: string }> } | { ok: false; kind: 'folder_taken'; folder: string } | { ok: false; kind: 'forbidden' }> {
  const folder = path.join(context.contentDir, slug);
  const existing = await stat(folder).catch(() => null);
  if (existing && !existing.isDirectory()) return { ok: false, kind: 'folder_taken', folder: slug };
  if (existing) {
    const inner = await readdir(folder);
    if (inner.some((entry) => parsePostFileName(`${slug}/${entry}`, context.languageNames) !== null)) {
      return { ok: false, kind: 'folder_taken', folder: slug };
    }
  }
  const versions = (await readdir(context.contentDir)).sort().filter((entry) => parsePostFileName(entry, context.languageNames)?.slug === slug);
  // Every version moves along: each must be one the person may change (an author's translation beside another's).
  if (context.access) {
    for (const entry of versions) {
      const text = await readFile(path.join(context.contentDir, entry), 'utf8').catch(() => '');
      if (!mayChangeText(context, text)) return { ok: false, kind: 'forbidden' };
    }
  }
  await mkdir(folder, { recursive: true });
  const moved: Array<{ from: string; to: string }> = [];
  for (const entry of versions) {
    const suffix = entry.slice(slug.length, -'.md'.length);
    const to = `${slug}/index${suffix}.md`;
    await rename(path.join(context.contentDir, entry), path.join(context.contentDir, slug, `index${suffix}.md`));
    moved.push({ from: entry, to });
  }
  await syncFolder(folder);
  await syncFolder(context.contentDir);
  return { ok: true, moved };
}

/** As writeNewFile, in the media store: `name`, or the first of `name-2`, `name-3`... that the folder does not list. */
async function writeNewObject(media: MediaStore, folder: string, name: string, bytes: Uint8Array): Promise<string> {
  const taken = new Set((await media.list(folder)).map((entry) => entry.name));
  let attempt = 1;
  while (taken.has(numberedFileName(name, attempt))) attempt += 1;
  const free = numberedFileName(name, attempt);
  await media.write(folder, free, Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), bytes.byteLength);
  return free;
}

/** Writes `bytes` under `name` in `folder`, or `name-2`, `name-3`...: never over a file that exists. */
async function writeNewFile(folder: string, name: string, bytes: Uint8Array): Promise<string> {
  function* candidates(): Generator<string> {
    for (let attempt = 1; ; attempt += 1) yield numberedFileName(name, attempt);
  }
  return (await createFileExclusively(folder, candidates(), bytes, 0o644))!;
}
