// The content rules of `[forms.spam]` (docs/spam.md "The order of the checks"): links, disposable address domains, the
// message's language and blocked words. Pure once the lists are loaded; the disposable-domain list and the
// language profiles load on first use, so a form without these rules never pays for them.
import { createRequire } from 'node:module';
import type { SpamConfig } from '../../config/config.js';
import type { Submission } from '../rules/submission.js';
import type { SpamReason } from './spam-reasons.js';
import { comparedLanguages, detectLanguages } from '../../kit/languages.js';

const require = createRequire(import.meta.url);

/** A message shorter than this is not judged by its language: a few words say too little. */
export const LANGUAGE_MIN_CHARACTERS = 40;

// A link: a scheme with "//", or a bare "www." host. Counted in the name and the message, where a bot puts them.
const LINK = /\b(?:https?|ftp):\/\/|\bwww\.[a-z0-9-]+\./giu;

let disposableDomains: ReadonlySet<string> | undefined;
let disposableWildcards: ReadonlySet<string> | undefined;

/** Whether `domain` (lower-case) or a domain it belongs to is on the maintained list of disposable mail domains. */
export function isDisposableDomain(domain: string): boolean {
  disposableDomains ??= new Set(require('disposable-email-domains') as string[]);
  disposableWildcards ??= new Set(require('disposable-email-domains/wildcard.json') as string[]);
  if (disposableDomains.has(domain)) return true;
  // "*.example" entries, and subdomains of a listed domain: a bot takes any name under a catch-all host.
  for (let dot = domain.indexOf('.'); dot !== -1; dot = domain.indexOf('.', dot + 1)) {
    const parent = domain.slice(dot + 1);
    if (disposableWildcards.has(parent) || disposableDomains.has(parent)) return true;
  }
  return disposableWildcards.has(domain);
}

/** How many links `text` holds. */
export function countLinks(text: string): number {
  return text.match(LINK)?.length ?? 0;
}

/** A matcher of whole blocked words and phrases, case- and accent-insensitive; undefined when there are none. */
export function createBlockedWords(words: readonly string[]): ((text: string) => boolean) | undefined {
  const cleaned = words.map((word) => fold(word).trim()).filter((word) => word !== '');
  if (cleaned.length === 0) return undefined;
  const alternatives = cleaned.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  // Letters or digits on either side make it part of a longer word ("class" does not match "ass").
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'u');
  return (text) => pattern.test(fold(text));
}

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The content rules of one form, with what depends only on its config worked out once. */
export function createContentRules(spam: SpamConfig): (submission: Submission) => SpamReason[] {
  const blocked = createBlockedWords(spam.blocked_words);
  const languages = spam.languages && new Set(spam.languages);
  const compared = spam.languages && comparedLanguages(spam.languages);
  return (submission) => {
    const reasons: SpamReason[] = [];
    const text = [submission.name, submission.service, submission.message].filter((part) => part !== undefined).join('\n');
    if (spam.max_links !== undefined && countLinks(text) > spam.max_links) reasons.push('links');
    if (spam.block_disposable && isDisposableDomain(domainOf(submission.email))) reasons.push('disposable');
    const message = submission.message;
    if (languages && message !== undefined && [...message.trim()].length >= LANGUAGE_MIN_CHARACTERS && !isInLanguages(message, languages, compared!)) {
      reasons.push('language');
    }
    if (blocked && (blocked(text) || blocked(submission.email))) reasons.push('words');
    return reasons;
  };
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Whether `text` reads as one of `languages` (ISO 639-1). A language close to the best guess counts too: related
 * languages (Bosnian, Croatian, Serbian; Indonesian, Malay) score alike on a short text, and a wrong verdict here
 * costs a real visitor a quarantined message.
 */
function isInLanguages(text: string, languages: ReadonlySet<string>, compared: readonly string[]): boolean {
  const guesses = detectLanguages(text, compared);
  if (guesses.length === 0) return true;
  return guesses.some((guess) => guess.score >= CLOSE_ENOUGH && guess.language !== undefined && languages.has(guess.language));
}

/** Of franc's scores (1 for the best guess), how close another guess must be to count as "this language too". */
const CLOSE_ENOUGH = 0.85;
