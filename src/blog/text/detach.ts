// V8 keeps a substring as a view of the string it was cut from (a "sliced string" of 13 or more characters), so
// a post's title kept for the catalog would keep the whole file text alive with it. A copy keeps only itself.

/** A string equal to `text` that refers to no larger string (JSON keeps lone surrogates: it escapes them). */
export function detach(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}
