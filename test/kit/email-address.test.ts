import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalEmailAddress, isEmailAddress } from '../../src/kit/email-address.js';

// Hand-written cases that pin the reading of RFC 5322 that docs/submission-rules.md "Email addresses" states
// (section 3.4.1, no obsolete forms, no CFWS, ASCII only, no length limit). The public corpora are checked
// in email-address-corpora.test.ts.
const valid: Array<[string, string]> = [
  ['a@b', 'one-letter parts, no dot needed in the domain'],
  ['first.last@example.com', 'dot-atom local part'],
  ["!#$%&'*+-/=?^_`{|}~@example.com", 'every atext special'],
  ['user@-leading-hyphen.example', 'dot-atom allows "-" anywhere (a hostname rule, not RFC 5322)'],
  ['user@example.com-', 'trailing hyphen: same'],
  ['me@localhost', 'single-label domain'],
  ['me@x!', '"!" is atext'],
  ['me@255.255.255.255', 'numeric labels are a dot-atom'],
  ['""@example.com', 'empty quoted string'],
  ['"a b"@example.com', 'space in a quoted string'],
  ['"a\tb"@example.com', 'tab in a quoted string'],
  ['" "@example.com', 'only a space'],
  ['"a..b"@example.com', 'dots anywhere inside quotes'],
  ['"a@b"@example.com', '"@" inside quotes'],
  ['"\\""@example.com', 'quoted-pair of DQUOTE'],
  ['"\\\\"@example.com', 'quoted-pair of backslash'],
  ['"\\ "@example.com', 'quoted-pair of space'],
  ['"\\\t"@example.com', 'quoted-pair of tab'],
  ['"\\a"@example.com', 'unnecessary quoted-pair of a letter'],
  ['a@[127.0.0.1]', 'IPv4 domain literal'],
  ['a@[IPv6:::1]', 'IPv6 address literal'],
  ['a@[anything-goes:here]', 'general dtext'],
  ['a@[a b\tc]', 'white space in a domain literal (FWS without CRLF)'],
  ['a@[]', 'empty domain literal: "[" *([FWS] dtext) [FWS] "]"'],
  [`${'x'.repeat(300)}@${'y'.repeat(300)}.com`, 'no length limit'],
];

const invalid: Array<[string, string]> = [
  ['', 'empty'],
  ['plainaddress', 'no @'],
  ['@example.com', 'no local part'],
  ['user@', 'no domain'],
  ['a@b@c', 'two @'],
  ['.a@example.com', 'leading dot'],
  ['a.@example.com', 'trailing dot in the local part'],
  ['a..b@example.com', 'two dots'],
  ['a@.example.com', 'leading dot in the domain'],
  ['a@example.com.', 'trailing dot in the domain'],
  ['a@example..com', 'two dots in the domain'],
  ['a b@example.com', 'unquoted space'],
  [' a@example.com', 'leading white space (CFWS)'],
  ['a@example.com ', 'trailing white space (CFWS)'],
  ['a @example.com', 'space before @'],
  ['a@ example.com', 'space after @'],
  ['(comment)a@example.com', 'comment'],
  ['a@example.com(comment)', 'trailing comment'],
  ['a@[127.0.0.1] (comment)', 'comment after a domain literal'],
  ['Ada <ada@example.com>', 'display name'],
  ['<ada@example.com>', 'angle brackets'],
  ['"a"."b"@example.com', 'obs-local-part: quoted words joined by dots'],
  ['"a".b@example.com', 'obs-local-part'],
  ['a."b"@example.com', 'obs-local-part'],
  ['"a"b@example.com', 'text after a quoted string'],
  ['a"b"@example.com', 'quote inside an atom'],
  ['"""@example.com', 'unescaped DQUOTE'],
  ['"a@example.com', 'unclosed quoted string'],
  ['"\\"@example.com', 'escaped closing quote leaves it unclosed'],
  ['"a\\', 'backslash at the end'],
  ['"a\r\n b"@example.com', 'folding CRLF in a quoted string (header injection)'],
  ['"a\nb"@example.com', 'LF in a quoted string'],
  ['"a\rb"@example.com', 'CR in a quoted string'],
  ['"\\\n"@example.com', 'obs-qp of LF'],
  ['"\\\r"@example.com', 'obs-qp of CR'],
  ['"\\\u0000"@example.com', 'obs-qp of NUL'],
  ['"\u0007"@example.com', 'obs-qtext BEL'],
  ['"\u007f"@example.com', 'obs-qtext DEL'],
  ['a@[1.2.3.4', 'unclosed domain literal'],
  ['a@[a[b]', '"[" inside a domain literal'],
  ['a@[a\\]b]', 'obs-dtext quoted-pair'],
  ['a@[a]b', 'text after a domain literal'],
  ['a@[a].com', 'dot after a domain literal'],
  ['a@b[1.2.3.4]', 'domain literal after an atom'],
  ['[1.2.3.4]@example.com', 'domain literal as local part'],
  ['a@"example.com"', 'quoted domain'],
  ['a@example,com', 'comma'],
  ['a;b@example.com', 'semicolon'],
  ['a\u0000@example.com', 'NUL'],
  ['a@example.com\n', 'trailing LF'],
  ['a\r\nBcc: x@example.com', 'header injection'],
  ['ü@example.com', 'non-ASCII local part'],
  ['a@exämple.com', 'non-ASCII domain'],
  ['"ü"@example.com', 'non-ASCII in quotes'],
  ['"\\ü"@example.com', 'quoted-pair of non-ASCII'],
  ['a@[ü]', 'non-ASCII in a domain literal'],
  ['a＠example.com', 'full-width at sign'],
  ['a@example\u3002com', 'ideographic full stop'],
  ['😀@example.com', 'astral character'],
];

describe('isEmailAddress: hand-written cases', () => {
  for (const [address, why] of valid) {
    it(`valid: ${JSON.stringify(address.length > 60 ? `${address.slice(0, 20)}…` : address)} (${why})`, () => {
      assert.equal(isEmailAddress(address), true);
    });
  }
  for (const [address, why] of invalid) {
    it(`invalid: ${JSON.stringify(address)} (${why})`, () => {
      assert.equal(isEmailAddress(address), false);
    });
  }
});

describe('isEmailAddress: linear time', () => {
  const size = 100_000;
  // Shapes that make naive regexes backtrack exponentially or scanners go quadratic, valid and invalid.
  const adversarial: Array<[string, string, boolean]> = [
    ['many dots, no @', 'a.'.repeat(size / 2), false],
    ['many dots then @', `${'a.'.repeat(size / 2)}a@example.com`, true],
    ['dotted local part ending badly', `${'a.'.repeat(size / 2)}@example.com`, false],
    ['many quotes', '"'.repeat(size), false],
    ['many quoted words', '"a".'.repeat(size / 4), false],
    ['long quoted string with backslashes', `"${'\\a'.repeat(size / 2)}"@example.com`, true],
    ['long quoted string, unclosed', `"${'\\"'.repeat(size / 2)}`, false],
    ['backslashes then a bad quoted-pair', `"${'\\\\'.repeat(size / 2)}\\\n"@x`, false],
    ['a@ + 100k labels', `a@${'b.'.repeat(size / 2)}c`, true],
    ['a@ + 100k labels, trailing dot', `a@${'b.'.repeat(size / 2)}`, false],
    ['many @', '@'.repeat(size), false],
    ['long domain literal', `a@[${'1.'.repeat(size / 2)}]`, true],
    ['long domain literal, unclosed', `a@[${' '.repeat(size)}`, false],
    ['long atom then space', `${'a'.repeat(size)} `, false],
    ['alternating atext and spaces', 'a '.repeat(size / 2), false],
  ];

  it('judges 100,000-character adversarial inputs in well under a second of CPU', () => {
    // CPU time, not the wall clock: a busy machine that leaves this process waiting does not count. A quadratic
    // scanner takes minutes here, a backtracking regex longer.
    const started = process.cpuUsage();
    for (const [shape, input, expected] of adversarial) {
      assert.ok(input.length >= size - 2, `${shape} is long enough`);
      assert.equal(isEmailAddress(input), expected, shape);
    }
    const used = process.cpuUsage(started);
    const elapsed = (used.user + used.system) / 1000;
    assert.ok(elapsed < 500, `took ${elapsed.toFixed(1)} ms of CPU for ${adversarial.length} inputs`);
  });
});

describe('canonicalEmailAddress: one spelling per mailbox (docs/newsletter.md "Duplicates")', () => {
  const cases: Array<[string, string | undefined, string]> = [
    ['bomb@example.com', 'bomb@example.com', 'a dot-atom stays as it is'],
    ['Bomb@Example.COM', 'Bomb@Example.COM', 'case is kept: it is compared elsewhere'],
    ['"bomb"@example.com', 'bomb@example.com', 'quotes around a dot-atom go'],
    ['"b\\omb"@example.com', 'bomb@example.com', 'an unnecessary quoted-pair is its character'],
    ['"\\b\\o\\m\\b"@example.com', 'bomb@example.com', 'every character quoted'],
    ['"first.last"@example.com', 'first.last@example.com', 'dots between atoms'],
    ['"user+tag"@[192.0.2.1]', 'user+tag@[192.0.2.1]', 'the domain is kept, literal or not'],
    ['"a b"@example.com', undefined, 'a space needs the quotes: no plain spelling'],
    ['"a\\ b"@example.com', undefined, 'a quoted space too'],
    ['"a@b"@example.com', undefined, 'an "@" needs them'],
    ['"a..b"@example.com', undefined, 'two dots need them'],
    ['".a"@example.com', undefined, 'a leading dot needs them'],
    ['""@example.com', undefined, 'an empty local part has no plain spelling'],
    ['"a\\"b"@example.com', undefined, 'a quote inside'],
    ['"bomb".x@example.com', undefined, 'not an address at all (obs-local-part)'],
    ['Ada <ada@example.com>', undefined, 'not an address at all'],
  ];
  for (const [value, expected, why] of cases) it(`${value}: ${why}`, () => assert.equal(canonicalEmailAddress(value), expected));

  it('every spelling it gives is an address, and its own spelling', () => {
    for (const [value] of cases) {
      const canonical = canonicalEmailAddress(value);
      if (canonical === undefined) continue;
      assert.equal(isEmailAddress(canonical), true, value);
      assert.equal(canonicalEmailAddress(canonical), canonical, value);
    }
  });
});
