// Email address syntax per docs/submission-rules.md "Email addresses": an RFC 5322 addr-spec (section
// 3.4.1), taken to the letter and nothing more. local-part = dot-atom / quoted-string; domain = dot-atom /
// domain-literal. No display name, no comments or CFWS around the parts, none of the obsolete forms
// (obs-local-part, obs-qp, obs-dtext), no length limit, and ASCII only (RFC 5322 has no non-ASCII; RFC 6532
// is not taken on). RFC 5321/DNS rules (hostname hyphens, a dot in the domain, IP syntax inside brackets) are
// deliberately not applied.
//
// Folding white space inside a quoted string or a domain literal is allowed as space and tab only: never
// CR or LF, so a valid address can go into a Reply-To header as it is.
//
// Written as a single left-to-right scan with a fixed lookup table: linear time on any input, no regex
// backtracking to exploit.
//
// One mailbox has many spellings: `"bomb"@example.com`, `"b\omb"@example.com` and `bomb@example.com` name the
// same one (quotes and quoted-pairs only protect characters), and mail libraries send them all to
// `bomb@example.com`. canonicalEmailAddress gives the one spelling where a list keeps addresses
// (docs/newsletter.md "Duplicates").

const ATEXT = 1; // RFC 5322 3.2.3: ALPHA / DIGIT / "!#$%&'*+-/=?^_`{|}~"
const QTEXT = 2; // RFC 5322 3.2.4: %d33 / %d35-91 / %d93-126
const DTEXT = 4; // RFC 5322 3.4.1: %d33-90 / %d94-126
const VCHAR = 8; // RFC 5234 B.1: %d33-126
const WSP = 16; // space and horizontal tab

const CLASSES = buildClasses();

function buildClasses(): Uint8Array {
  const classes = new Uint8Array(128);
  for (let code = 33; code <= 126; code += 1) {
    classes[code]! |= VCHAR;
    if (code !== 34 && code !== 92) classes[code]! |= QTEXT;
    if (code <= 90 || code >= 94) classes[code]! |= DTEXT;
    const char = String.fromCharCode(code);
    if (/[A-Za-z0-9]/.test(char) || "!#$%&'*+-/=?^_`{|}~".includes(char)) classes[code]! |= ATEXT;
  }
  classes[32] = WSP;
  classes[9] = WSP;
  return classes;
}

/** Whether `value` is exactly an addr-spec, with nothing around it (the caller trims). */
export function isEmailAddress(value: string): boolean {
  const localEnd = value.charCodeAt(0) === 34 ? scanQuotedString(value, 0) : scanDotAtom(value, 0);
  if (localEnd < 0 || value.charCodeAt(localEnd) !== 64) return false;
  const domainStart = localEnd + 1;
  const domainEnd =
    value.charCodeAt(domainStart) === 91 ? scanDomainLiteral(value, domainStart) : scanDotAtom(value, domainStart);
  return domainEnd === value.length;
}

/**
 * The one spelling of the addr-spec `value`, for a list that must hold each mailbox once: a quoted local part
 * whose content, quoted-pairs undone, is a dot-atom is written as that dot-atom (`"b\omb"@example.com` is
 * `bomb@example.com`); an address with any other quoted local part (a space, an "@", two dots, nothing) has no
 * spelling such a list takes: undefined, as for a value that is no address. The domain and the letter case are
 * kept as written; case is compared elsewhere.
 */
export function canonicalEmailAddress(value: string): string | undefined {
  if (!isEmailAddress(value)) return undefined;
  if (value.charCodeAt(0) !== 34) return value;
  const localEnd = scanQuotedString(value, 0);
  // Inside the quotes: a backslash takes the character after it as it is (RFC 5322 3.2.1).
  const local = value.slice(1, localEnd - 1).replace(/\\(.)/gs, '$1');
  if (scanDotAtom(local, 0) !== local.length) return undefined;
  return `${local}${value.slice(localEnd)}`;
}

/**
 * The key under which a list of mailboxes compares `address` (the suppression list, docs/bounces.md): its canonical
 * spelling, or the address as given when it has none, in lower case. `"MG"@example.net` and `mg@Example.net` are
 * one key.
 */
export function comparableEmailAddress(address: string): string {
  return (canonicalEmailAddress(address) ?? address).toLowerCase();
}

function has(code: number, characterClass: number): boolean {
  return code < 128 && (CLASSES[code]! & characterClass) !== 0;
}

/** dot-atom-text = 1*atext *("." 1*atext); returns the index after it, or -1. */
function scanDotAtom(text: string, start: number): number {
  let index = start;
  for (;;) {
    const runStart = index;
    while (index < text.length && has(text.charCodeAt(index), ATEXT)) index += 1;
    if (index === runStart) return -1;
    if (text.charCodeAt(index) !== 46) return index;
    index += 1;
  }
}

/** DQUOTE *([WSP] (qtext / quoted-pair)) [WSP] DQUOTE; quoted-pair = "\" (VCHAR / WSP). */
function scanQuotedString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 34) return index + 1;
    if (code === 92) {
      if (!has(text.charCodeAt(index + 1), VCHAR | WSP)) return -1;
      index += 2;
    } else if (has(code, QTEXT | WSP)) {
      index += 1;
    } else {
      return -1;
    }
  }
  return -1;
}

/** "[" *([WSP] dtext) [WSP] "]"; no quoted-pairs (those are obs-dtext). */
function scanDomainLiteral(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 93) return index + 1;
    if (!has(code, DTEXT | WSP)) return -1;
    index += 1;
  }
  return -1;
}
