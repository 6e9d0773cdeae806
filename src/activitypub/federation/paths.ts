// Where the blog's actor and its collections live on the blog's listener (docs/activitypub.md "Addresses").
export const ACTOR_PATH = '/activitypub/users/{identifier}';
export const INBOX_PATH = '/activitypub/users/{identifier}/inbox';
export const SHARED_INBOX_PATH = '/activitypub/inbox';
export const OUTBOX_PATH = '/activitypub/users/{identifier}/outbox';
export const FOLLOWERS_PATH = '/activitypub/users/{identifier}/followers';
export const NODEINFO_PATH = '/nodeinfo/2.1';

/** The actor's id on `origin`. */
export function actorIdOf(origin: string, username: string): string {
  return `${origin}${ACTOR_PATH.replace('{identifier}', username)}`;
}

/** The id of the key the actor signs with, as its document names it. */
export function keyIdOf(origin: string, username: string): string {
  return `${actorIdOf(origin, username)}#main-key`;
}

/** The followers collection's id on `origin`. */
export function followersIdOf(origin: string, username: string): string {
  return `${origin}${FOLLOWERS_PATH.replace('{identifier}', username)}`;
}
