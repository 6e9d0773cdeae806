// Which files of each slug are served. Of two files for one slug and language (`a.md` and `a/index.md`, or a
// `lang` key that collides with a suffix) the first path in sort order wins; the other is skipped with one
// warning. Worked out again only for the slugs whose files changed: an edit at 100,000 posts does not visit the
// other 99,999.
import type { Logger } from '../../kit/log.js';
import { languageKey } from './language.js';
import type { PostVersion } from './post.js';

/** A file that parsed but is not served: another file has its slug and language. */
export interface Duplicate {
  file: string;
  reason: string;
  post: PostVersion;
}

export interface ServedVersions {
  /** Each slug's served versions, one per language, in path order. A slug's list is replaced, never changed. */
  versions: ReadonlyMap<string, readonly PostVersion[]>;
  /** Each slug's duplicates; a slug without any is absent. */
  duplicates: ReadonlyMap<string, readonly Duplicate[]>;
}

export interface SlugVersions {
  /** `file` held `before` and now holds `after` (undefined: it is gone, or did not or does not parse). */
  set(file: string, before: PostVersion | undefined, after: PostVersion | undefined): void;
  /**
   * The served versions with the changes since the last call, in new maps (earlier ones stay as they were), and
   * the slugs those changes touched.
   */
  settle(): { served: ServedVersions; changedSlugs: ReadonlySet<string> };
}

/** `stampOf` gives a file's stamp, so that a duplicate is reported again when it changes. */
export function createSlugVersions(logger: Logger, stampOf: (file: string) => string): SlugVersions {
  /** Every file of a slug that parsed, in path order; each list replaced on change, so that it can be served as is. */
  const parsed = new Map<string, readonly PostVersion[]>();
  /** The duplicates reported per slug, so that each is reported once while it stays as it is. */
  const reported = new Map<string, Set<string>>();
  let served: ServedVersions = { versions: new Map(), duplicates: new Map() };
  let touched = new Set<string>();

  const without = (slug: string, file: string) => {
    const list = (parsed.get(slug) ?? []).filter((post) => post.file !== file);
    if (list.length > 0) parsed.set(slug, list);
    else parsed.delete(slug);
    touched.add(slug);
  };
  const including = (post: PostVersion) => {
    touched.add(post.slug);
    const before = parsed.get(post.slug);
    if (!before) {
      parsed.set(post.slug, [post]);
      return;
    }
    const list = [...before];
    let at = list.length;
    while (at > 0 && list[at - 1]!.file > post.file) at -= 1;
    list.splice(at, 0, post);
    parsed.set(post.slug, list);
  };

  /** The slug's served versions and duplicates; warns of a duplicate not reported before. */
  const workOut = (slug: string, files: readonly PostVersion[]) => {
    if (files.length === 1) {
      reported.delete(slug);
      return { versions: files, duplicates: [] };
    }
    const kept = new Map<string, PostVersion>();
    const duplicates: Duplicate[] = [];
    const reports = new Set<string>();
    for (const post of files) {
      const key = languageKey(post.lang);
      const winner = kept.get(key);
      if (!winner) {
        kept.set(key, post);
        continue;
      }
      const reason = `duplicate of ${winner.file} (slug "${post.slug}", lang "${post.lang}")`;
      const report = `${post.file}\n${reason}\n${stampOf(post.file)}`;
      reports.add(report);
      duplicates.push({ file: post.file, reason, post });
      if (!reported.get(slug)?.has(report)) logger.warn({ event: 'post_skipped', file: post.file, reason }, `post skipped: ${post.file}: ${reason}`);
    }
    if (reports.size > 0) reported.set(slug, reports);
    else reported.delete(slug);
    return { versions: duplicates.length === 0 ? files : [...kept.values()], duplicates };
  };

  return {
    set(file, before, after) {
      if (before) without(before.slug, file);
      if (after) including(after);
    },
    settle() {
      const changedSlugs = touched;
      touched = new Set();
      if (changedSlugs.size === 0) return { served, changedSlugs };
      const versions = new Map(served.versions);
      const duplicates = new Map(served.duplicates);
      for (const slug of changedSlugs) {
        const files = parsed.get(slug);
        const outcome = files ? workOut(slug, files) : null;
        if (outcome) versions.set(slug, outcome.versions);
        else {
          versions.delete(slug);
          reported.delete(slug);
        }
        if (outcome && outcome.duplicates.length > 0) duplicates.set(slug, outcome.duplicates);
        else duplicates.delete(slug);
      }
      served = { versions, duplicates };
      return { served, changedSlugs };
    },
  };
}
