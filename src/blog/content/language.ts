// Language codes of posts: recognised in file names (`hello.fr.md`) and canonicalised (`pt-br` -> `pt-BR`).
import { LANGUAGE_CODE } from '../../config/schema.js';

/** Canonical BCP 47 form of `value`, or null when it is not a language code. */
export function canonicalLanguage(value: string): string | null {
  if (!LANGUAGE_CODE.test(value)) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether a file-name suffix names a real language: `hello.fr.md` is French, but `node.js.md` is the slug
 * `node.js` (Intl knows no language "js"). Without this, every two-letter word after a dot would be a language.
 */
export function isKnownLanguage(code: string, names: Intl.DisplayNames): boolean {
  return knownLanguage(code, names) !== null;
}

/** The canonical form of a suffix that names a real language (see isKnownLanguage), else null. */
export function knownLanguage(code: string, names: Intl.DisplayNames): string | null {
  // Asked for every file name with a dot at each scan: the few suffixes a blog uses are looked up once.
  let answers = knownByNames.get(names);
  if (!answers) knownByNames.set(names, (answers = new Map()));
  let known = answers.get(code);
  if (known === undefined) {
    if (answers.size >= MAX_REMEMBERED) answers.clear();
    answers.set(code, (known = lookUpLanguage(code, names)));
  }
  return known;
}

/** Suffixes remembered per lookup: file names are the authors', and not bounded. */
const MAX_REMEMBERED = 1000;
const knownByNames = new WeakMap<Intl.DisplayNames, Map<string, string | null>>();

function lookUpLanguage(code: string, names: Intl.DisplayNames): string | null {
  const canonical = canonicalLanguage(code);
  if (!canonical) return null;
  try {
    return names.of(canonical) !== undefined ? canonical : null;
  } catch {
    return null;
  }
}

/** The lookup `isKnownLanguage` needs; built once per service. */
export function createLanguageNames(): Intl.DisplayNames {
  return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
}

/** Key for comparing language codes case-insensitively. */
export function languageKey(code: string): string {
  return code.toLowerCase();
}
