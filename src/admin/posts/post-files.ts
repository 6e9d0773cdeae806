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
 *   posts.withAccess(may)                              -> PostFiles          (the same, for one person: post-access.ts)
 *
 * `file` is always a path relative to content_dir with `/` separators, as the blog names posts
 * (`hello.md`, `hello.fr.md`, `hello/index.md`, `hello/index.fr.md`). Writes run one at a time.
 */
import { createLanguageNames } from '../../blog/content/language.js';
import { createMarkdownTools } from '../../blog/content/markdown.js';
import { parsePostFile } from '../../blog/content/parse-post.js';
import type { Clock } from '../../ports.js';
import type { PostFilesContext } from './context.js';
import { addTranslation, createPost, newPostFields, type CreateOutcome } from './create-post.js';
import { readVersion, saveVersion, setDraftKey, type ReadOutcome, type SaveOutcome, type SaveRequest } from './edit-post.js';
import type { PostFields } from './post-fields.js';
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
   * The same files for one person: every operation on a post `may` refuses, judged on the file on disk when the
   * operation reads it, answers `forbidden` and changes nothing, and so does a write whose result `may` refuses
   * (a new post, a save). The writes still run one at a time with everybody's.
   */
  withAccess(may: PostAccess): PostFiles;
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
  };
  const writes = createSerializer();
  return operations(context, writes);
}

/** The operations over `context`, their writes through `writes`. */
function operations(context: PostFilesContext, writes: <T>(task: () => Promise<T>) => Promise<T>): PostFiles {
  return {
    read: (file) => readVersion(context, file),
    save: (request) => writes(() => saveVersion(context, request)),
    create: (fields, body) => writes(() => createPost(context, fields, body)),
    addTranslation: (file, language) => writes(() => addTranslation(context, file, language)),
    setDraft: (file, draft, version) => writes(() => setDraftKey(context, file, draft, version)),
    remove: (file, version) => writes(() => removeVersion(context, file, version)),
    storeImage: (file, originalName, bytes, maxBytes) => writes(() => storeImage(context, file, originalName, bytes, maxBytes)),
    listPostImages: async (file) => {
      const outcome = await listPostImages(context, file);
      return outcome.ok ? outcome.images : [];
    },
    deleteImage: (file, name) => writes(() => deletePostImage(context, file, name)),
    newPostFields: () => newPostFields(context.clock()),
    withAccess: (may) => {
      const outer = context.access;
      return operations({ ...context, access: outer ? (post) => outer(post) && may(post) : may }, writes);
    },
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
