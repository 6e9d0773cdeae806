// Reply subscribers and comment mail tokens in data_dir (docs/comments.md "Where comments are kept"): one file,
// data_dir/comments/mail.json, replaced atomically on every change, with the subscribers and the tokens' hashes
// (an expired token is dropped at the next write). Changes of this process run one after the other, which makes
// each of them one step: `serve` is the one process that writes the file.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommentMailStore, CommentMailToken, ReplySubscriber } from '../../comments/comment-mail-store.js';
import { comparableEmailAddress } from '../../kit/email-address.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { commentsDirOf } from './comment-files.js';

interface MailFile {
  subscribers: ReplySubscriber[];
  tokens: CommentMailToken[];
}

export function createCommentMailFiles(dataDir: string): CommentMailStore {
  const folder = commentsDirOf(dataDir);
  const file = path.join(folder, 'mail.json');
  let loaded: Promise<MailFile> | undefined;
  let changes: Promise<unknown> = Promise.resolve();

  const load = (): Promise<MailFile> => {
    loaded ??= readFile(file, 'utf8').then(
      (text) => JSON.parse(text) as MailFile,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return { subscribers: [], tokens: [] };
        throw error;
      },
    );
    loaded.catch(() => (loaded = undefined));
    return loaded;
  };

  /** Runs `change` on a copy after every change before it, and saves the copy when it says so. */
  const change = <T>(step: (state: MailFile) => { changed: boolean; result: T }, now?: number): Promise<T> => {
    const run = async () => {
      const current = await load();
      const state: MailFile = { subscribers: current.subscribers.map((one) => ({ ...one, watched: [...one.watched] })), tokens: [...current.tokens] };
      const { changed, result } = step(state);
      if (changed) {
        if (now !== undefined) state.tokens = state.tokens.filter((token) => token.expiresAt > now);
        await mkdir(folder, { recursive: true });
        await writeFileAtomically(file, `${JSON.stringify(state, null, 1)}\n`);
        loaded = Promise.resolve(state);
      }
      return result;
    };
    const done = changes.then(run, run);
    changes = done.catch(() => undefined);
    return done;
  };

  const byAddress = (state: MailFile, address: string) => state.subscribers.find((one) => comparableEmailAddress(one.address) === comparableEmailAddress(address));

  return {
    optIn: (optIn) =>
      change((state) => {
        let subscriber = byAddress(state, optIn.address);
        if (!subscriber) {
          subscriber = { id: optIn.newId, address: optIn.address, confirmed: false, confirmationSentAt: null, watched: [] };
          state.subscribers.push(subscriber);
        }
        if (!subscriber.watched.includes(optIn.commentId)) subscriber.watched.push(optIn.commentId);
        const sendConfirmation = !subscriber.confirmed && (subscriber.confirmationSentAt === null || subscriber.confirmationSentAt <= optIn.resendAfter);
        if (sendConfirmation) subscriber.confirmationSentAt = optIn.now;
        return { changed: true, result: { subscriber: { ...subscriber }, sendConfirmation } };
      }, optIn.now),
    subscriberByAddress: async (address) => byAddress(await load(), address),
    subscriberById: async (id) => (await load()).subscribers.find((one) => one.id === id),
    confirm: (id) =>
      change((state) => {
        const subscriber = state.subscribers.find((one) => one.id === id);
        if (subscriber) subscriber.confirmed = true;
        return { changed: subscriber !== undefined, result: subscriber !== undefined };
      }),
    unsubscribe: (id, commentId) =>
      change((state) => {
        const subscriber = state.subscribers.find((one) => one.id === id);
        if (!subscriber) return { changed: false, result: false };
        if (commentId === null) {
          subscriber.watched = [];
          subscriber.confirmed = false;
        } else subscriber.watched = subscriber.watched.filter((watched) => watched !== commentId);
        return { changed: true, result: true };
      }),
    addToken: (token, now) => change((state) => ({ changed: state.tokens.push(token) > 0, result: undefined }), now),
    findToken: async (hash, now) => (await load()).tokens.find((token) => token.hash === hash && token.expiresAt > now),
    takeToken: (hash, now) =>
      change((state) => {
        const index = state.tokens.findIndex((token) => token.hash === hash && token.expiresAt > now);
        if (index === -1) return { changed: false, result: undefined };
        const [token] = state.tokens.splice(index, 1);
        return { changed: true, result: token };
      }, now),
  };
}
