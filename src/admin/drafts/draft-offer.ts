// What the editor page is told about the person's unsaved draft while a request renders it. The post handlers
// (post-pages/post-pages.tsx) render the editor without knowing about drafts: the draft routes
// (post-pages/editor-pages.tsx, withUnsavedDrafts) look the draft up and run the handler inside `withDraftOffer`,
// and the page (post-editor-page.tsx) reads it with `draftOffer()`. A page rendered outside such a request (a
// preview, a refused save) offers nothing.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { UnsavedDraft } from './draft-store.js';

export interface DraftOffer {
  /** The person's draft of the post being opened. */
  draft: UnsavedDraft;
  /** `?restore=1`: the editor shows the draft's text instead of the file's. */
  restore: boolean;
}

const current = new AsyncLocalStorage<DraftOffer | undefined>();

/** Runs `render` (a page handler) with `offer` readable by the editor page it renders. */
export function withDraftOffer<T>(offer: DraftOffer | undefined, render: () => T): T {
  return current.run(offer, render);
}

/** The draft offer of the request rendering now, if any. */
export function draftOffer(): DraftOffer | undefined {
  return current.getStore();
}
