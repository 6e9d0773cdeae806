// The History pages' reads over the content repository (docs/admin.md "Posts in git"): `git log --follow` for the
// versions of a post since its path was last created, `git cat-file` for one version's text. Reads take no turn
// in the write queue: git's objects never change once written, and a listing made during a commit shows the
// history just before or just after it.
import type { HistoryEntry, PostHistory } from '../../admin/history-pages/post-history.js';
import type { ContentRepository } from './content-repository.js';

/** The characters of a commit id shown and quoted: git's own default abbreviation. */
const SHORT_ID_LENGTH = 7;

export function createGitHistory(repository: Pick<ContentRepository, 'log' | 'show'>): PostHistory {
  return {
    async entries(file, limit) {
      const logged = await repository.log(file, limit);
      // `--follow` goes on past the commit that created the path, into a deleted file of the same name: another
      // post, perhaps another person's. The history ends where the path was last created.
      const created = logged.findIndex((commit) => commit.created);
      const commits = created === -1 ? logged : logged.slice(0, created + 1);
      return commits.map(
        (commit): HistoryEntry => ({
          id: commit.id,
          shortId: commit.id.slice(0, SHORT_ID_LENGTH),
          at: commit.at,
          author: commit.author,
          message: commit.subject,
          file: commit.file,
        }),
      );
    },
    textAt: (id, file) => (/^[0-9a-f]{40,64}$/.test(id) ? repository.show(id, file) : Promise.resolve(undefined)),
  };
}
