// The session cookie (RFC 6265bis): HttpOnly, SameSite=Strict, Path=/admin, Secure when admin.secure_cookies.
import { ABSOLUTE_SESSION_MS } from './sessions.js';

export const SESSION_COOKIE = 'postbox_admin';

/** The session id the Cookie header carries, if any. */
export function sessionIdOf(cookieHeader: string | undefined): string | undefined {
  if (cookieHeader === undefined) return undefined;
  for (const part of cookieHeader.split(';')) {
    const [name, ...value] = part.split('=');
    if (name?.trim() === SESSION_COOKIE) return value.join('=').trim();
  }
  return undefined;
}

/** Set-Cookie for a new session; it lasts as long as the session's absolute limit. */
export function sessionCookie(id: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/admin; Max-Age=${ABSOLUTE_SESSION_MS / 1000}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that removes the cookie (sign-out). */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/admin; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
