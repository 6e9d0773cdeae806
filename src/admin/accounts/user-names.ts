// What a new user's name may be (docs/admin.md "Users, invitations and the audit log"), for an invitation and for
// `postbox users add` alike: one line, no invisible formatting characters, letters of one script (as Unicode's
// "highly restrictive" level of UTS #39 allows: Latin alone or with the scripts written together with Han), and not
// a look-alike of a name in use: equal after compatibility forms, case and the common Cyrillic and Greek letters that
// look like Latin ones are folded (nameKeyOf).

/** The longest name, as for `[admin] users`. */
export const MAX_NAME_LENGTH = 100;

/** The scripts a letter is told apart by; a letter of any other script counts as "Other". */
const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali', 'Gurmukhi',
  'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar',
  'Georgian', 'Hangul', 'Ethiopic', 'Cherokee', 'Khmer', 'Mongolian', 'Hiragana', 'Katakana', 'Bopomofo', 'Han',
].map((script) => ({ script, pattern: new RegExp(`^\\p{Script=${script}}$`, 'u') }));

/** Characters of no script of their own (digits, punctuation, spaces) or of the letter before (combining marks). */
const SHARED = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** The sets of scripts one name may mix: those written together (UTS #39 section 5.2, "highly restrictive"). */
const ALLOWED_MIXES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** The scripts of the letters of `name`, in the order they first appear. */
export function scriptsOf(name: string): string[] {
  const found = new Set<string>();
  for (const character of name.normalize('NFKC')) {
    if (SHARED.test(character)) continue;
    found.add(SCRIPTS.find(({ pattern }) => pattern.test(character))?.script ?? 'Other');
  }
  return [...found];
}

/** Whether `name` mixes scripts that are not written together (Latin with Cyrillic or Greek, say). */
export function isMixedScript(name: string): boolean {
  const scripts = scriptsOf(name);
  return scripts.length > 1 && !ALLOWED_MIXES.some((allowed) => scripts.every((script) => allowed.has(script)));
}

/** Why `name` cannot be a new user's name, or undefined when it can (a name in use is checked apart). */
export function nameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'The name is empty.';
  if (name.length > MAX_NAME_LENGTH) return `The name is longer than ${MAX_NAME_LENGTH} characters.`;
  if (name !== name.trim()) return 'The name begins or ends with white space.';
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) return 'The name must be one line, without control characters.';
  if (/\p{Cf}/u.test(name)) return 'The name must not hold invisible formatting characters (such as right-to-left marks).';
  if (isMixedScript(name)) return `The name mixes letters of ${scriptsOf(name).join(' and ')} script, which can pass for another name: use one script.`;
  return undefined;
}

/**
 * Cyrillic and Greek letters that look like Latin ones (from Unicode's confusables.txt), capitals before case is
 * folded so that a capital and its small letter may map to different Latin letters (Greek Η reads H, η reads n).
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  // Cyrillic capitals and small letters.
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', Ѕ: 'S', І: 'I', Ј: 'J', Ү: 'Y', Ӏ: 'l',
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', і: 'i', ј: 'j', ԁ: 'd', һ: 'h', ӏ: 'l', ԛ: 'q', ԝ: 'w', ү: 'y', ь: 'b',
  // Greek capitals and small letters.
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  α: 'a', ο: 'o', ρ: 'p', ν: 'v', ι: 'i', υ: 'u', κ: 'k', γ: 'y', χ: 'x', ω: 'w', η: 'n',
};

/**
 * What two names are compared by when a new one is given: compatibility forms (NFKC), look-alike Cyrillic and Greek
 * letters and case folded, so that "Ada", "ada", "Ａｄａ" (full-width) and "Аdа" (with Cyrillic а) are one name and
 * cannot be two people an owner tells apart by eye.
 */
export function nameKeyOf(name: string): string {
  const folded = [...name.normalize('NFKC')].map((character) => LOOK_ALIKES[character] ?? character).join('');
  return folded.toLowerCase().normalize('NFKC');
}

/** The first of `names` that `name` is a look-alike of (the same key, nameKeyOf), or undefined. */
export function lookAlikeOf(name: string, names: Iterable<string>): string | undefined {
  const key = nameKeyOf(name);
  for (const other of names) if (nameKeyOf(other) === key) return other;
  return undefined;
}
