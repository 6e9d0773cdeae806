/**
 * The post files of content_dir as the admin console edits them (docs/admin.md "Posts"; docs/blog.md "Images beside a
 * post"). No HTTP and no HTML: every method returns an outcome the pages turn into an answer, and none throws for
 * anything a person can do wrong (a bad path, a bad field, a file changed meanwhile); it throws only when the disk
 * fails.
 *
 *   const posts = createPostFiles({ contentDir, trashDir: path.join(dataDir, 'trash'), clock: Date.now });
 *   posts.read(file)                                   -> ReadOutcome        (fields, body, format, version)
 *   posts.save({ file, version, fields, body, baseText? }) -> SaveOutcome    ('saved' | 'invalid' | 'conflict' | ...)
 *   posts.create(fields, body)                         -> CreateOutcome      (`<slug>.md`, TOML front matter)
 *   posts.addTranslation(file, language)               -> CreateOutcome      (a draft copy in `language`)
 *   posts.setDraft(file, draft, version?)              -> SaveOutcome        (Publish / Unpublish)
 *   posts.remove(file, version?)                       -> RemoveOutcome      (moved to the trash)
 *   posts.storeImage(file, originalName, bytes, maxBytes) -> StoreImageOutcome
 *   posts.listPostImages(file)                         -> PostImage[]        ([{ name, bytes }] beside it; [] when none or refused)
 *   posts.deleteImage(file, name)                      -> DeleteImageOutcome (moved to the trash)
 *   posts.newPostFields()                              -> PostFields         (empty, dated today)
 *   posts.restore(file, version, text, restored)       -> SaveOutcome        (a version from the history, whole)
 *   posts.withAccess(may, { rawHtml })                 -> PostFiles          (the same, for one person: post-access.ts, raw-html.ts)
 *   posts.by(user)                                     -> PostFiles          (the same, its changes recorded as `user`'s)
 *
 * `file` is always a path relative to content_dir with `/` separators, as the blog names posts
 * (`hello.md`, `hello.fr.md`, `hello/index.md`, `hello/index.fr.md`). Writes run one at a time. With a change log
 * (post-changes.ts), they run one at a time through it, and each write is recorded there as one change.
 */
import { createLanguageNames } from '../../blog/content/language.js';
import { createMarkdownTools } from '../../blog/content/markdown.js';
import { parsePostFile } from '../../blog/content/parse-post.js';
import type { Clock } from '../../ports.js';
import type { PostFilesContext } from './context.js';
import { addTranslation, createPost, newPostFields, type CreateOutcome } from './create-post.js';
import { readVersion, replaceText, saveVersion, setDraftKey, type ReadOutcome, type SaveOutcome, type SaveRequest } from './edit-post.js';
import type { PostChangeLog } from './post-changes.js';
import { recordCreate, recordDeleteImage, recordRemove, recordSave, recordStoreImage, type Recorder } from './recorded-writes.js';
import type { PostFields } from './post-fields.js';
import type { MediaStore } from '../../blog/media/media-store.js';
import { storeImage, type StoreImageOutcome } from './store-image.js';
import { removeVersion, type RemoveOutcome } from './trash.js';
import type { PostAccess } from './post-access.js';
import { deletePostImage, listPostImages, type DeleteImageOutcome, type ImagesOutcome, type PostImage } from './post-images.js';

export type { CreateOutcome, ReadOutcome, RemoveOutcome, SaveOutcome, SaveRequest, StoreImageOutcome, PostFields };
export type { EditableVersion } from './edit-post.js';
export type { FieldProblem } from './post-fields.js';
export type { PostAccess } from './post-access.js';
export type { DeleteImageOutcome, ImagesOutcome, PostImage };

export interface PostFilesOptions {
  /** blog.content_dir. */
  contentDir: string;
  /** `<data_dir>/trash`: where "Delete" moves files. Created when first needed. */
  trashDir: string;
  /** Names trash entries and dates new posts. */
  clock: Clock;
  /** site.language: the language of a post that names none, for "one post per slug and language" (default "en"). */
  defaultLanguage?: string;
  /** Where each write is recorded as one change (docs/admin.md "Posts in git"); writes take turns through it. */
  changes?: PostChangeLog;
  /** Where uploaded images go instead of the post's folder (docs/blog.md "Media in storage"); never with `changes`. */
  media?: MediaStore;
}

export interface PostFiles {
  read(file: string): Promise<ReadOutcome>;
  save(request: SaveRequest): Promise<SaveOutcome>;
  create(fields: PostFields, body: string): Promise<CreateOutcome>;
  addTranslation(file: string, language: string): Promise<CreateOutcome>;
  setDraft(file: string, draft: boolean, version?: string): Promise<SaveOutcome>;
  remove(file: string, version?: string): Promise<RemoveOutcome>;
  storeImage(file: string, originalName: string, bytes: Uint8Array, maxBytes: number): Promise<StoreImageOutcome>;
  /**
   * The images beside the post `file` (its folder's image files), by name, with their sizes in bytes: none for a
   * post without a folder, and none for a post the person may not change or that is not there.
   */
  listPostImages(file: string): Promise<PostImage[]>;
  /** Moves the image `name` beside the post `file` to the trash; a name outside the post's folder is `no_image`. */
  deleteImage(file: string, name: string): Promise<DeleteImageOutcome>;
  newPostFields(): PostFields;
  /**
   * Writes `text` (a version from the post's history) as the whole of `file`, if the file is still `version`;
   * recorded as a restore of `restored`. The checks of a save apply.
   */
  restore(file: string, version: string, text: string, restored: string): Promise<SaveOutcome>;
  /** The same files, their changes recorded as made by `user` (a user name of /admin). */
  by(user: string): PostFiles;
  /**
   * The same files for one person: every operation on a post `may` refuses, judged on the file on disk when the
   * operation reads it, answers `forbidden` and changes nothing, and so does a write whose result `may` refuses
   * (a new post, a save). The writes still run one at a time with everybody's.
   */
  withAccess(may: PostAccess, options?: { rawHtml?: boolean }): PostFiles;
}

/** The editing operations over one content_dir. */
export function createPostFiles(options: PostFilesOptions): PostFiles {
  const languageNames = createLanguageNames();
  // Only validity matters here: the language and base URL change what the blog shows, not whether it serves.
  const parseContext = { markdown: createMarkdownTools(), languageNames, defaultLanguage: 'en', baseUrl: 'http://localhost' };
  const context: PostFilesContext = {
    contentDir: options.contentDir,
    trashDir: options.trashDir,
    clock: options.clock,
    languageNames,
    defaultLanguage: options.defaultLanguage ?? 'en',
    blogProblem: (file, text) => {
      const outcome = parsePostFile(file, text, parseContext);
      return outcome.ok ? null : outcome.reason;
    },
    media: options.media,
  };
  const changes = options.changes;
  const writes = changes ? <T>(task: () => Promise<T>) => changes.exclusive(task) : createSerializer();
  return operations(context, writes, changes && { log: changes });
}

/** The operations over `context`, their writes through `writes`, each recorded by `recorder` when there is one. */
function operations(context: PostFilesContext, writes: <T>(task: () => Promise<T>) => Promise<T>, recorder?: Recorder): PostFiles {
  /** `write`, then its outcome recorded as one change (as it is without a recorder). */
  const recorded = <T>(write: () => Promise<T>, record: (recorder: Recorder, outcome: T) => Promise<T>) =>
    writes(async () => {
      const outcome = await write();
      return recorder ? record(recorder, outcome) : outcome;
    });
  return {
    read: (file) => readVersion(context, file),
    save: (request) => recorded(() => saveVersion(context, request), (to, outcome) => recordSave(context, to, outcome, request.action ?? 'edit')),
    create: (fields, body) => recorded(() => createPost(context, fields, body), (to, outcome) => recordCreate(to, outcome, 'create')),
    addTranslation: (file, language) => recorded(() => addTranslation(context, file, language), (to, outcome) => recordCreate(to, outcome, 'translate')),
    setDraft: (file, draft, version) =>
      recorded(() => setDraftKey(context, file, draft, version), (to, outcome) => recordSave(context, to, outcome, draft ? 'unpublish' : 'publish')),
    remove: (file, version) => recorded(() => removeVersion(context, file, version), (to, outcome) => recordRemove(context, to, outcome)),
    storeImage: (file, originalName, bytes, maxBytes) => recorded(() => storeImage(context, file, originalName, bytes, maxBytes), recordStoreImage),
    listPostImages: async (file) => {
      const outcome = await listPostImages(context, file);
      return outcome.ok ? outcome.images : [];
    },
    deleteImage: (file, name) => recorded(() => deletePostImage(context, file, name), (to, outcome) => recordDeleteImage(to, file, outcome)),
    newPostFields: () => newPostFields(context.clock()),
    restore: (file, version, text, restored) =>
      recorded(() => replaceText(context, file, version, text), (to, outcome) => recordSave(context, to, outcome, 'restore', restored)),
    withAccess: (may, options = {}) => {
      const outer = context.access;
      const rawHtml = context.rawHtml === false || options.rawHtml === false ? false : context.rawHtml;
      return operations({ ...context, access: outer ? (post) => outer(post) && may(post) : may, rawHtml }, writes, recorder);
    },
    by: (user) => operations(context, writes, recorder && { ...recorder, author: user }),
  };
}

/** Runs tasks one after another, so that a check and the write it allows are never split by another write. */
function createSerializer(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
