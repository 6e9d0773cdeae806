// The slug a post gets when its slug field is left empty (docs/admin.md "Posts"): made from the title, in ASCII.
// Pure: which slugs are taken is the caller's to say (slug-owners.ts reads them from the files on disk).

/** Letters NFKD does not take apart into a base letter and marks. */
const LETTERS: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', þ: 'th', ð: 'd', ı: 'i' };

/** A slug longer than this is cut at a hyphen: an address stays readable. */
const MAX_LENGTH = 80;

/** What a title with no letter or digit in ASCII ("日本語", "!!!") gives. */
const FALLBACK = 'post';

/**
 * `Crème brûlée: 10 tips!` -> `creme-brulee-10-tips`: lower case, accents and marks dropped (NFKD), ß, æ, ø, œ,
 * ł, đ, þ spelled out, every run of anything else one hyphen, none at either end. When the slug is in `taken`,
 * the first of `<slug>-2`, `<slug>-3`, ... that is not.
 */
export function slugOfTitle(title: string, taken: ReadonlySet<string> | ((slug: string) => boolean) = new Set()): string {
  const isTaken = typeof taken === 'function' ? taken : (slug: string) => taken.has(slug);
  const base = baseSlugOf(title);
  if (!isTaken(base)) return base;
  for (let number = 2; ; number += 1) {
    const candidate = `${base}-${number}`;
    if (!isTaken(candidate)) return candidate;
  }
}

/** The slug of `title` alone, before any number is added. */
export function baseSlugOf(title: string): string {
  const ascii = title
    .toLowerCase()
    .replace(/[ßæøœłđþðı]/g, (letter) => LETTERS[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = ascii.length <= MAX_LENGTH ? ascii : ascii.slice(0, MAX_LENGTH).replace(/-[^-]*$/, '') || ascii.slice(0, MAX_LENGTH);
  return cut.replace(/-+$/, '') || FALLBACK;
}
