// Where a person goes after signing in: the `next` parameter, only when it is a path under /admin. Anything
// else (an absolute URL, "//host", a backslash, a ".." segment) would let a link send them to another site.

/** The dashboard: what is new at a glance. */
export const DEFAULT_NEXT = '/admin';

/** `value` when it is a safe path under /admin (with its query), else undefined. */
export function safeNextPath(value: string | null | undefined): string | undefined {
  if (!value || value.length > 2000) return undefined;
  if (!/^\/admin(?:[/?]|$)/.test(value)) return undefined;
  if (/[\\\u0000-\u001f\u007f#]/.test(value) || value.includes('//')) return undefined;
  const path = value.split('?', 1)[0] as string;
  if (/(?:^|\/)\.\.?(?:\/|$)/.test(path) || /%2e|%2f|%5c/i.test(path)) return undefined;
  if (path === '/admin/login' || path === '/admin/logout') return undefined;
  return value;
}

/** The login page's address that brings the person back to `target` afterwards. */
export function loginPathFor(target: string | undefined): string {
  const next = safeNextPath(target);
  return next === undefined ? '/admin/login' : `/admin/login?next=${encodeURIComponent(next)}`;
}
