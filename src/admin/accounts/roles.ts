// What each role may open and change in /admin (docs/admin.md "Users and roles"). A page lists the roles it
// serves; the guard answers 403 to any other before the page runs, so nothing changes.
import type { Role } from './account.js';

/** Every role: the posts pages (an author sees and changes their own posts only). */
export const EVERY_ROLE: readonly Role[] = ['owner', 'editor', 'author'];
/** Owners and editors: every post, publishing, scheduling and campaigns. */
export const EDITORS: readonly Role[] = ['owner', 'editor'];
/** Owners only: the dashboard, inbox, subscribers, failed mail, users and the audit log. */
export const OWNERS: readonly Role[] = ['owner'];

/** Where a role lands after signing in. */
export function homeOf(role: Role): string {
  return role === 'owner' ? '/admin' : '/admin/posts';
}
