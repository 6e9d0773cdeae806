// The session cookie (RFC 6265bis): HttpOnly, SameSite=Strict. With `[admin] secure_cookies` it is
// `__Host-postbox_admin` on `Path=/` and Secure: the browser then keeps it from being set by another host or over
// plain HTTP. Without, `postbox_admin` on `Path=/admin`. A request carrying the cookie twice (one planted by a
// sibling subdomain beside the real one) is signed in as nobody: which one is the person's cannot be told.

/** The cookie's name with and without secure cookies. */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-postbox_admin' : 'postbox_admin';
}

/** Every value of the cookie `name` in a Cookie header, in the order sent. */
export function cookieValues(cookieHeader: string | undefined, name: string): string[] {
  if (cookieHeader === undefined) return [];
  const values: string[] = [];
  for (const part of cookieHeader.split(';')) {
    const [key, ...value] = part.split('=');
    if (key?.trim() === name) values.push(value.join('=').trim());
  }
  return values;
}

/** The session id the Cookie header carries under `name`; undefined when there is none, or more than one. */
export function sessionIdOf(cookieHeader: string | undefined, name: string): string | undefined {
  const values = cookieValues(cookieHeader, name);
  return values.length === 1 ? values[0] : undefined;
}

/** Set-Cookie for a new session; it lasts as long as the session's absolute limit. */
export function sessionCookie(id: string, secure: boolean, maxMs: number): string {
  return `${sessionCookieName(secure)}=${id}; Path=${secure ? '/' : '/admin'}; Max-Age=${Math.floor(maxMs / 1000)}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that removes the cookie (sign-out). */
export function clearedSessionCookie(secure: boolean): string {
  return `${sessionCookieName(secure)}=; Path=${secure ? '/' : '/admin'}; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
