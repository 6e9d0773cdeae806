// The images beside a post (docs/admin.md "Posts"; docs/blog.md "Images beside a post"): the image files in a folder
// post's folder, listed with their sizes, and "Delete image", which moves one to data_dir/trash/ like a deleted
// post (restorable by hand). In the media store (docs/blog.md "Media in storage") they are listed and deleted there.
// A `<slug>.md` post has no folder, so no images. A name is only ever a file directly in the post's own folder: no
// path, no hidden name, no post file, no link.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { parsePostFileName } from '../../blog/content/file-name.js';
import { findPost, type PathRefusal, type PostFilesContext } from './context.js';
import { isInsideContentDir } from './post-path.js';
import { freeName, moveAcrossDevices, trashStamp } from './trash.js';

/** One image beside a post. */
export interface PostImage {
  /** The file name in the post's folder, as the text links it: `![...](name)`. */
  name: string;
  bytes: number;
}

export type ImagesOutcome = { ok: true; images: PostImage[] } | PathRefusal;

export type DeleteImageOutcome =
  | { ok: true; kind: 'trashed'; name: string; trashedAs: string }
  /** Deleted from the media store, which has no trash. */
  | { ok: true; kind: 'deleted'; name: string }
  /** No such image beside the post (or a name that is no image of its folder). */
  | { ok: false; kind: 'no_image' }
  | PathRefusal;

/** The file names the upload stores (store-image.ts) and the blog serves beside a post. */
const IMAGE_NAME = /^[^./\\][^/\\]*\.(png|jpe?g|gif|webp|avif)$/i;

/** The images beside the post `file`, by name; none for a post without a folder. */
export async function listPostImages(context: PostFilesContext, file: string): Promise<ImagesOutcome> {
  const found = await findPost(context, file);
  if (!found.ok) return found;
  const folder = folderOf(found.post.path.relative);
  if (folder === null) return { ok: true, images: [] };
  if (context.media) return { ok: true, images: (await context.media.list(folder)).filter((entry) => isImageName(context, folder, entry.name)) };
  const absolute = path.join(context.contentDir, folder);
  const images: PostImage[] = [];
  for (const name of (await readdir(absolute).catch(() => [] as string[])).sort()) {
    if (!isImageName(context, folder, name)) continue;
    const stats = await lstat(path.join(absolute, name)).catch(() => null);
    if (stats?.isFile()) images.push({ name, bytes: stats.size });
  }
  return { ok: true, images };
}

/** Moves the image `name` beside the post `file` to the trash, named `<time>-<folder>__<name>`. */
export async function deletePostImage(context: PostFilesContext, file: string, name: string): Promise<DeleteImageOutcome> {
  const found = await findPost(context, file);
  if (!found.ok) return found;
  const folder = folderOf(found.post.path.relative);
  if (folder === null || !isImageName(context, folder, name)) return { ok: false, kind: 'no_image' };
  if (context.media) {
    if (!(await context.media.list(folder)).some((entry) => entry.name === name)) return { ok: false, kind: 'no_image' };
    await context.media.remove(folder, name);
    return { ok: true, kind: 'deleted', name };
  }
  const source = path.join(context.contentDir, folder, name);
  const stats = await lstat(source).catch(() => null);
  if (!stats?.isFile() || !(await isInsideContentDir(context.contentDir, source, true))) return { ok: false, kind: 'no_image' };
  await mkdir(context.trashDir, { recursive: true });
  const target = await freeName(context.trashDir, `${trashStamp(context.clock())}-${folder}__${name}`);
  await moveAcrossDevices(source, target);
  return { ok: true, kind: 'trashed', name, trashedAs: path.basename(target) };
}

/** The folder of a folder post (`hello/index.md` -> `hello`), else null. */
function folderOf(relative: string): string | null {
  return relative.includes('/') ? relative.split('/')[0]! : null;
}

/** Whether `name` is a plain image file name in `folder`, not a path and not a post file. */
function isImageName(context: PostFilesContext, folder: string, name: string): boolean {
  return IMAGE_NAME.test(name) && !name.includes('\0') && parsePostFileName(`${folder}/${name}`, context.languageNames) === null;
}
