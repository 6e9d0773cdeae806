import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FormConfig } from '../../../src/config/config.js';
import { checkSubmission, scanText, type SubmissionCheck } from '../../../src/forms/rules/submission.js';
import { loadTestConfig } from '../../support/config.js';

/** A form with the schema's real defaults, so the tests follow any change of a default. */
function formOf(settings: Record<string, unknown>): FormConfig {
  const config = loadTestConfig(
    {
      server: { public_url: 'https://forms.example.com' },
      mail: { from: 'forms@example.com', to: 'owner@example.com' },
      forms: [{ path: '/form', allowed_origins: [], ...settings }],
    },
    '/',
  );
  return config.forms[0]!;
}

const contact = formOf({ type: 'contact' });
const feedback = formOf({ type: 'feedback' });
const generic = formOf({ type: 'generic' });
const newsletter = formOf({ type: 'newsletter' });

const good = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello there, a longer message.' };

function details(check: SubmissionCheck) {
  assert.equal(check.ok, false, 'expected a validation failure');
  return check.ok ? [] : check.details;
}

function accepted(check: SubmissionCheck) {
  assert.ok(check.ok, `expected acceptance, got ${JSON.stringify(check)}`);
  return check;
}

describe('checkSubmission: accepted bodies', () => {
  it('trims every field and returns only the known ones', () => {
    const check = accepted(
      checkSubmission(contact, {
        name: '  Ada  ',
        email: '\tada@example.com\n',
        service: ' Hosting ',
        message: '\n  Hello there, friend.  \n',
        extra: 'ignored',
        website: '',
      }),
    );
    assert.deepEqual(check.submission, {
      name: 'Ada',
      email: 'ada@example.com',
      service: 'Hosting',
      message: 'Hello there, friend.',
    });
    assert.equal(check.honeypotHit, false);
  });

  it('leaves absent optional fields out of the submission (no undefined keys)', () => {
    const check = accepted(checkSubmission(contact, good));
    assert.deepEqual(Object.keys(check.submission).sort(), ['email', 'message', 'name']);
  });

  for (const form of [contact, feedback, generic]) {
    it(`${form.type}: name, email and message are enough`, () => {
      accepted(checkSubmission(form, good));
    });
  }

  it('counts runes, not UTF-16 units: 2 astral characters make a valid name, 100 make the maximum', () => {
    accepted(checkSubmission(contact, { ...good, name: '😀😀' }));
    accepted(checkSubmission(contact, { ...good, name: '𝒜'.repeat(100) }));
    const tooLong = details(checkSubmission(contact, { ...good, name: '𝒜'.repeat(101) }));
    assert.deepEqual(tooLong, [{ field: 'name', message: 'Name must be at most 100 characters' }]);
  });

  it('counts a combining sequence as its code points', () => {
    // "é" written as e + U+0301 is 2 runes, so it reaches the 2-rune minimum on its own.
    accepted(checkSubmission(contact, { ...good, name: 'e\u0301' }));
  });

  it('message keeps inner line breaks and tabs, and U+2028', () => {
    const message = 'Line one\r\nLine two\n\tindented\u2028end';
    assert.equal(accepted(checkSubmission(contact, { ...good, message })).submission.message, message);
  });

  it('treats null as absent', () => {
    const check = accepted(checkSubmission(contact, { ...good, service: null, website: null }));
    assert.equal('service' in check.submission, false);
    assert.equal(check.honeypotHit, false);
  });

  it('does not read inherited properties as fields', () => {
    const body = Object.create({ name: 'Inherited Name' }) as Record<string, unknown>;
    Object.assign(body, { email: 'a@example.com', message: 'A long enough message.' });
    assert.deepEqual(details(checkSubmission(contact, body)), [{ field: 'name', message: 'Name is required' }]);
  });
});

describe('checkSubmission: required fields per type', () => {
  it('contact with an empty body lists name, email and message, in that order', () => {
    assert.deepEqual(details(checkSubmission(contact, {})), [
      { field: 'name', message: 'Name is required' },
      { field: 'email', message: 'Email is required' },
      { field: 'message', message: 'Message is required' },
    ]);
  });

  it('a value that is only white space counts as absent', () => {
    assert.deepEqual(details(checkSubmission(feedback, { name: '   ', email: ' ', message: '\n\t' })), [
      { field: 'name', message: 'Name is required' },
      { field: 'email', message: 'Email is required' },
      { field: 'message', message: 'Message is required' },
    ]);
  });

  it('require_name = false and require_message = false make them optional', () => {
    const relaxed = formOf({ type: 'feedback', require_name: false, require_message: false });
    const check = accepted(checkSubmission(relaxed, { email: 'a@example.com' }));
    assert.deepEqual(check.submission, { email: 'a@example.com' });
  });

  it('an optional field that is present must still be valid', () => {
    const relaxed = formOf({ type: 'feedback', require_name: false, require_message: false });
    assert.deepEqual(details(checkSubmission(relaxed, { name: 'A', email: 'a@example.com', message: 'short' })), [
      { field: 'name', message: 'Name must be at least 2 characters' },
      { field: 'message', message: 'Message must be at least 10 characters' },
    ]);
  });

  it('newsletter needs only email and drops name, message and service unchecked', () => {
    const check = accepted(
      checkSubmission(newsletter, { email: 'a@example.com', name: 1, message: 'x', service: ['?'] }),
    );
    assert.deepEqual(check.submission, { email: 'a@example.com' });
    assert.deepEqual(details(checkSubmission(newsletter, { name: 'Ada' })), [
      { field: 'email', message: 'Email is required' },
    ]);
  });

  it('newsletter ignores require_name and require_message', () => {
    const strict = formOf({ type: 'newsletter', require_name: true, require_message: true });
    accepted(checkSubmission(strict, { email: 'a@example.com' }));
  });
});

describe('checkSubmission: field rules', () => {
  it('every invalid field at once, one detail each, order name, email, service, message', () => {
    const withServices = formOf({ type: 'contact', services: ['Web design', 'Hosting'] });
    assert.deepEqual(
      details(checkSubmission(withServices, { message: 'short', service: 'Plumbing', email: 'nope', name: 'A' })),
      [
        { field: 'name', message: 'Name must be at least 2 characters' },
        { field: 'email', message: 'Email must be a valid email address' },
        { field: 'service', message: 'Service must be one of the offered choices' },
        { field: 'message', message: 'Message must be at least 10 characters' },
      ],
    );
  });

  it('a present value that is not a string is invalid for that field only', () => {
    for (const value of [42, true, false, 0, [], ['Ada'], {}, { first: 'Ada' }]) {
      assert.deepEqual(
        details(checkSubmission(contact, { ...good, name: value, email: value, service: value, message: value })),
        [
          { field: 'name', message: 'Name must be text' },
          { field: 'email', message: 'Email must be text' },
          { field: 'service', message: 'Service must be text' },
          { field: 'message', message: 'Message must be text' },
        ],
        `value ${JSON.stringify(value)}`,
      );
    }
  });

  const nameCases: Array<[string, string | undefined]> = [
    ['Al', undefined],
    ['A', 'Name must be at least 2 characters'],
    ['  A  ', 'Name must be at least 2 characters'],
    ['x'.repeat(100), undefined],
    ['x'.repeat(101), 'Name must be at most 100 characters'],
    ['Ada\nLovelace', 'Name must not contain control characters or line breaks'],
    ['Ada\rBcc: x@y.z', 'Name must not contain control characters or line breaks'],
    ['Ada\tLovelace', 'Name must not contain control characters or line breaks'],
    ['Ada\u0000', 'Name must not contain control characters or line breaks'],
    ['Ada\u007f', 'Name must not contain control characters or line breaks'],
    ['Ada\u0085x', 'Name must not contain control characters or line breaks'],
    ['Ada\u009fx', 'Name must not contain control characters or line breaks'],
    ['Ada\u2028x', 'Name must not contain control characters or line breaks'],
    ['Ada\u2029x', 'Name must not contain control characters or line breaks'],
    ['Ada\ud800x', 'Name must not contain control characters or line breaks'],
    ['Ada\udc00x', 'Name must not contain control characters or line breaks'],
    ['Ada\u00a0Lovelace', undefined],
    ['Zoë Ünal-O’Brien', undefined],
  ];
  for (const [name, expected] of nameCases) {
    it(`name ${JSON.stringify(name.length > 20 ? `${name.slice(0, 8)}…(${name.length})` : name)} -> ${expected ?? 'ok'}`, () => {
      const check = checkSubmission(contact, { ...good, name });
      if (expected === undefined) accepted(check);
      else assert.deepEqual(details(check), [{ field: 'name', message: expected }]);
    });
  }

  const messageCases: Array<[string, string | undefined]> = [
    ['x'.repeat(10), undefined],
    ['x'.repeat(9), 'Message must be at least 10 characters'],
    [`  ${'x'.repeat(9)}\n\n`, 'Message must be at least 10 characters'],
    ['😀'.repeat(5), 'Message must be at least 10 characters'],
    ['😀'.repeat(10), undefined],
    ['x'.repeat(5000), undefined],
    ['😀'.repeat(5000), undefined],
    ['x'.repeat(5001), 'Message must be at most 5,000 characters'],
    ['Hello there\u0000friend', 'Message must not contain control characters'],
    ['Hello there\u001bfriend', 'Message must not contain control characters'],
    ['Hello there\u007ffriend', 'Message must not contain control characters'],
    ['Hello there\u0080friend', 'Message must not contain control characters'],
    ['Hello there\ud83dfriend', 'Message must not contain control characters'],
  ];
  for (const [message, expected] of messageCases) {
    it(`message ${JSON.stringify(message.length > 20 ? `${message.slice(0, 8)}…(${message.length})` : message)} -> ${expected ?? 'ok'}`, () => {
      const check = checkSubmission(contact, { ...good, message });
      if (expected === undefined) accepted(check);
      else assert.deepEqual(details(check), [{ field: 'message', message: expected }]);
    });
  }

  it('uses the form\'s configured bounds, with singular wording for one character', () => {
    const tuned = formOf({ type: 'generic', name_min: 1, name_max: 5, message_min: 0, message_max: 1 });
    accepted(checkSubmission(tuned, { name: 'A', email: 'a@example.com', message: 'x' }));
    assert.deepEqual(details(checkSubmission(tuned, { name: 'Abcdef', email: 'a@example.com', message: 'xy' })), [
      { field: 'name', message: 'Name must be at most 5 characters' },
      { field: 'message', message: 'Message must be at most 1 character' },
    ]);
  });

  it('messages never echo the input', () => {
    const marker = 'ZQXJ';
    const withServices = formOf({ type: 'contact', services: ['Hosting'] });
    const all = details(
      checkSubmission(withServices, {
        name: `${marker}\nx`,
        email: `${marker}@`,
        service: marker,
        message: `${marker}\u0000`,
      }),
    );
    assert.equal(all.length, 4);
    for (const detail of all) assert.equal(detail.message.includes(marker), false, detail.message);
  });

  it('email is checked with the RFC 5322 rules after trimming', () => {
    assert.equal(accepted(checkSubmission(contact, { ...good, email: ' "a b"@[127.0.0.1] ' })).submission.email, '"a b"@[127.0.0.1]');
    for (const email of ['Ada <ada@example.com>', 'ada@example.com (Ada)', 'ada@exämple.com', 'ada@', 'a\r\n@example.com']) {
      assert.deepEqual(details(checkSubmission(contact, { ...good, email })), [
        { field: 'email', message: 'Email must be a valid email address' },
      ], email);
    }
  });
});

describe('checkSubmission: service', () => {
  const withServices = formOf({ type: 'contact', services: ['Web design', 'Hosting'] });

  it('must equal one entry of services exactly (after trimming)', () => {
    assert.equal(accepted(checkSubmission(withServices, { ...good, service: ' Web design ' })).submission.service, 'Web design');
    for (const service of ['web design', 'Web  design', 'Web', 'Hosting!']) {
      assert.deepEqual(details(checkSubmission(withServices, { ...good, service })), [
        { field: 'service', message: 'Service must be one of the offered choices' },
      ], service);
    }
  });

  it('stays optional with a services list', () => {
    assert.equal('service' in accepted(checkSubmission(withServices, { ...good, service: '' })).submission, false);
  });

  it('without a services list is free text up to 100 runes and one line', () => {
    assert.equal(accepted(checkSubmission(contact, { ...good, service: '🛠'.repeat(100) })).submission.service, '🛠'.repeat(100));
    assert.deepEqual(details(checkSubmission(contact, { ...good, service: 'x'.repeat(101) })), [
      { field: 'service', message: 'Service must be at most 100 characters' },
    ]);
    assert.deepEqual(details(checkSubmission(contact, { ...good, service: 'Web\ndesign' })), [
      { field: 'service', message: 'Service must not contain control characters or line breaks' },
    ]);
  });

  for (const form of [feedback, generic]) {
    it(`is ignored (dropped unchecked) on ${form.type} forms`, () => {
      const check = accepted(checkSubmission(form, { ...good, service: 'x'.repeat(500) }));
      assert.equal('service' in check.submission, false);
      accepted(checkSubmission(form, { ...good, service: 7 }));
    });
  }
});

describe('checkSubmission: honeypot', () => {
  const hits: unknown[] = ['http://spam.example', ' x ', 0, false, ['a'], {}];
  for (const value of hits) {
    it(`a filled trap field (${JSON.stringify(value)}) is a hit on a valid body`, () => {
      assert.equal(accepted(checkSubmission(contact, { ...good, website: value })).honeypotHit, true);
    });
  }

  for (const value of [undefined, null, '', '   ']) {
    it(`an empty or absent trap field (${JSON.stringify(value)}) is no hit`, () => {
      const body: Record<string, unknown> = { ...good };
      if (value !== undefined) body.website = value;
      assert.equal(accepted(checkSubmission(contact, body)).honeypotHit, false);
    });
  }

  it('uses the configured field name, not "website"', () => {
    const custom = formOf({ type: 'contact', honeypot_field: 'fax' });
    assert.equal(accepted(checkSubmission(custom, { ...good, website: 'x' })).honeypotHit, false);
    assert.equal(accepted(checkSubmission(custom, { ...good, fax: 'x' })).honeypotHit, true);
  });

  it('validation comes first: an invalid body with the trap filled is a validation failure', () => {
    assert.deepEqual(details(checkSubmission(contact, { ...good, email: 'bad', website: 'spam' })), [
      { field: 'email', message: 'Email must be a valid email address' },
    ]);
  });

  it('works on newsletter forms too', () => {
    assert.equal(accepted(checkSubmission(newsletter, { email: 'a@example.com', website: 'x' })).honeypotHit, true);
  });
});

describe('scanText', () => {
  const cases: Array<[string, boolean, { runes: number; clean: boolean }]> = [
    ['', false, { runes: 0, clean: true }],
    ['abc', false, { runes: 3, clean: true }],
    ['😀a', false, { runes: 2, clean: true }],
    ['\ud83d', false, { runes: 1, clean: false }],
    ['\ude00\ud83d', true, { runes: 2, clean: false }],
    ['a\nb', false, { runes: 3, clean: false }],
    ['a\nb', true, { runes: 3, clean: true }],
    ['a\u000bb', true, { runes: 3, clean: false }],
    ['a\u2029b', true, { runes: 3, clean: true }],
    ['a\u2029b', false, { runes: 3, clean: false }],
  ];
  for (const [text, allowLineBreaks, expected] of cases) {
    it(`${JSON.stringify(text)} lineBreaks=${allowLineBreaks}`, () => {
      assert.deepEqual(scanText(text, allowLineBreaks), expected);
    });
  }
});
