// What a subscriber record tells besides the address (docs/newsletter.md "Subscriber attributes"): the language a
// sign-up gave and the tags the owner sets, each in one spelling. Pure.

/** A language tag such as `en` or `pt-BR`, lower-cased; anything else (too long, other characters) is no language. */
export function languageTagOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const tag = value.trim().toLowerCase();
  return /^[a-z]{2,3}(-[a-z0-9]{1,8}){0,3}$/.test(tag) ? tag : undefined;
}

/** Tags as kept: trimmed, lower-cased, blanks and repeats dropped, sorted; commas separate tags in one string. */
export function normalTags(values: readonly string[]): string[] {
  const tags = values.flatMap((value) => value.split(',')).map((tag) => tag.trim().toLowerCase()).filter((tag) => tag !== '');
  return [...new Set(tags)].sort();
}
