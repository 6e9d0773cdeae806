// The newsletter double opt-in (docs/newsletter.md): its types and the one way to build it.
export type { ConfirmOutcome, ConfirmState, Newsletter, NewsletterDeps, RemoveOutcome, SignupOutcome, UnsubscribeOutcome } from './types.js';
export { readSubscribers } from './subscriber-log.js';
export type { Subscriber } from './subscriber-events.js';
export { createNewsletter } from './flow.js';
export type { NewsletterStore, Redemption } from './newsletter-store.js';
