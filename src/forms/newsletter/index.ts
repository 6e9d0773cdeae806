// The newsletter double opt-in (docs/newsletter.md): its types and the one way to build it.
export type { ConfirmOutcome, Newsletter, NewsletterDeps, SignupOutcome } from './types.js';
export { createNewsletter } from './flow.js';
