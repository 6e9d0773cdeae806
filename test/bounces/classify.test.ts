// The bounce classifier (src/bounces/classify.ts, docs/bounces.md "Bounces: how a failure is classified"): over the
// labelled corpus of real bounces in test/fixtures/bounces it agrees with the labels on at least 95 % of the mails
// and takes at most 3 % of the soft bounces for hard; and on small mails made here it reads the rules one by one
// (a 5.7.1 is soft, a 5.1.1 is hard with its recipient and status, the SMTP command a refusal answered counts, a
// bare "550 Unknown user" is soft, a notice is read in its own words and languages, an ARF report is a complaint,
// an out-of-office and a success report are none, the VERP address and the returned Message-ID come out); small
// mails in the shapes of particular mail systems (test/fixtures/bounce-shapes) get the kind each expects; and
// 100,000-character adversarial mails are read in linear time.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { classifyBounce, type BounceVerdict } from '../../src/bounces/classify.js';

const CORPUS = new URL('../fixtures/bounces/', import.meta.url);
/** Small mails written for these tests in the shapes of particular mail systems, each with the kind it must get. */
const SHAPES = new URL('../fixtures/bounce-shapes/', import.meta.url);

type Label = 'hard' | 'soft' | 'complaint' | 'none';

/** A multipart/report of one or more recipients as a Postfix-like mail system writes it. */
function deliveryReport(options: {
  recipients: Array<{ address: string; action?: string; status: string; diagnostic?: string }>;
  to?: string;
  deliveredTo?: string;
  returned?: string;
  subject?: string;
}): string {
  const boundary = 'B0UND4RY.1710745241/mx.example.net';
  const groups = options.recipients.map((recipient) =>
    [
      `Final-Recipient: rfc822; ${recipient.address}`,
      `Action: ${recipient.action ?? 'failed'}`,
      `Status: ${recipient.status}`,
      ...(recipient.diagnostic ? [`Diagnostic-Code: smtp; ${recipient.diagnostic}`] : []),
    ].join('\n'),
  );
  return [
    'Return-Path: <>',
    ...(options.deliveredTo ? [`Delivered-To: ${options.deliveredTo}`] : []),
    'From: MAILER-DAEMON@mx.example.net (Mail Delivery System)',
    `To: ${options.to ?? 'news@example.com'}`,
    `Subject: ${options.subject ?? 'Undelivered Mail Returned to Sender'}`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx.example.net.',
    "I'm sorry to have to inform you that your message could not be delivered.",
    '',
    `--${boundary}`,
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.net',
    '',
    groups.join('\n\n'),
    '',
    ...(options.returned ? [`--${boundary}`, 'Content-Type: message/rfc822', '', options.returned, ''] : []),
    `--${boundary}--`,
    '',
  ].join('\n');
}

const RETURNED = [
  'From: Studio <news@example.com>',
  'To: reader@example.org',
  'Subject: Spring opening hours',
  'Message-ID: <news-2024-03.41c7@example.com>',
  'X-Postbox-Campaign: spring-2024',
  'X-Postbox-Form: /newsletter',
  '',
  'We are open from April on. The mailbox of our old address does not exist any more.',
].join('\n');

describe('the bounce corpus', () => {
  it('agrees with its labels on at least 95 % of the mails, taking at most 3 % of the soft ones for hard', async () => {
    const labels = JSON.parse(readFileSync(new URL('labels.json', CORPUS), 'utf8')) as Record<string, Label>;
    const files = readdirSync(CORPUS).filter((file) => file.endsWith('.eml')).sort();
    assert.deepEqual(files, Object.keys(labels).sort(), 'every mail has a label, every label a mail');
    assert.ok(files.length >= 280, `${files.length} mails`);

    const disagreements: string[] = [];
    let agree = 0;
    let soft = 0;
    let softAsHard = 0;
    for (const file of files) {
      const verdict = await classifyBounce(readFileSync(new URL(file, CORPUS)));
      const label = labels[file]!;
      if (verdict.kind === label) agree += 1;
      else disagreements.push(`${file}: labelled ${label}, classified ${verdict.kind} (${verdict.status ?? '-'}; ${verdict.reason ?? 'no reason'})`);
      if (label === 'soft') {
        soft += 1;
        if (verdict.kind === 'hard') softAsHard += 1;
      }
    }
    const agreement = agree / files.length;
    const softAsHardRate = softAsHard / soft;
    console.log(
      `bounce corpus: ${agree}/${files.length} agree (${(agreement * 100).toFixed(1)} %), ` +
        `${softAsHard}/${soft} soft taken for hard (${(softAsHardRate * 100).toFixed(1)} %)\n` +
        disagreements.map((line) => `  ${line}`).join('\n'),
    );
    assert.ok(agreement >= 0.95, `agreement ${(agreement * 100).toFixed(1)} %`);
    assert.ok(softAsHardRate <= 0.03, `soft taken for hard ${(softAsHardRate * 100).toFixed(1)} %`);
  });
});

describe('the shapes of mail systems', () => {
  it('reads each small mail in test/fixtures/bounce-shapes as its expected kind, naming its recipient', async () => {
    const expected = JSON.parse(readFileSync(new URL('expected.json', SHAPES), 'utf8')) as Record<string, { kind: Label; recipient?: string }>;
    const files = readdirSync(SHAPES).filter((file) => file.endsWith('.eml')).sort();
    assert.deepEqual(files, Object.keys(expected).sort(), 'every mail has an expectation, every expectation a mail');
    const wrong: string[] = [];
    for (const file of files) {
      const verdict = await classifyBounce(readFileSync(new URL(file, SHAPES)));
      const want = expected[file]!;
      if (verdict.kind !== want.kind || (want.recipient !== undefined && verdict.recipient !== want.recipient)) {
        wrong.push(`${file}: expected ${want.kind} ${want.recipient ?? ''}, classified ${verdict.kind} ${verdict.recipient ?? ''} (${verdict.reason ?? 'no reason'})`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});

describe('classifyBounce: linear time', () => {
  const size = 100_000;
  /** A failure notice (or an HTML one) whose text is `body`: every rule reads it. */
  const notice = (body: string, type = 'text/plain') =>
    [
      'From: Mail Delivery System <MAILER-DAEMON@mx.example.net>',
      'To: news@example.com',
      'Subject: Undelivered Mail Returned to Sender',
      'X-Failed-Recipients: reader@example.org',
      `Content-Type: ${type}; charset=utf-8`,
      '',
      body,
      '',
    ].join('\n');
  // Shapes that make naive regexes go quadratic: long runs without the character a pattern waits for, words that
  // start a rule again and again, the failed address on every line, tags that never close.
  const adversarial: Array<[string, string]> = [
    ['one long word', notice('a'.repeat(size))],
    ['one long run of dashes', notice('-'.repeat(size))],
    ['one long run of quotes', notice("'".repeat(size))],
    ['a dotted name with no end', notice('a.'.repeat(size / 2))],
    ['a local part with no domain', notice(`${'a'.repeat(size)}@`)],
    ['an at sign before a long run', notice(`a@${'b-'.repeat(size / 2)}`)],
    ['"exceed" again and again', notice('exceed'.repeat(size / 6))],
    ['"user" and a name again and again', notice("user 'a".repeat(size / 7))],
    ['the failed address on every line', notice('reader@example.org\n'.repeat(size / 19))],
    ['an indented block under the address', notice(`reader@example.org\n${'    no words\n'.repeat(size / 13)}`)],
    ['HTML tags that never close', notice('<'.repeat(size), 'text/html')],
    ['HTML styles that never close', notice('<style>'.repeat(size / 7), 'text/html')],
    ['a delivery report of one long line', deliveryReport({ recipients: [{ address: 'reader@example.org', status: '5.0.0', diagnostic: `550 ${'x'.repeat(size)}` }] })],
  ];

  it('reads 100,000-character adversarial mails in well under a few seconds of CPU', async () => {
    // CPU time, not the wall clock, as in test/kit/email-address.test.ts: a quadratic rule takes minutes here.
    const started = process.cpuUsage();
    for (const [shape, mail] of adversarial) {
      assert.ok(mail.length >= size - 20, `${shape} is long enough`);
      const verdict = await classifyBounce(mail);
      assert.ok(['hard', 'soft', 'none'].includes(verdict.kind), shape);
    }
    const used = process.cpuUsage(started);
    const elapsed = (used.user + used.system) / 1000;
    assert.ok(elapsed < 4000, `took ${elapsed.toFixed(1)} ms of CPU for ${adversarial.length} mails`);
  });
});

describe('classifyBounce', () => {
  it('takes a 5.7.1 refusal for soft: a blocked or refused mail is no dead address', async () => {
    const verdict = await classifyBounce(
      deliveryReport({
        recipients: [{ address: 'reader@example.org', status: '5.7.1', diagnostic: '550 5.7.1 <reader@example.org>: Recipient address rejected: Access denied' }],
      }),
    );
    assert.equal(verdict.kind, 'soft');
    assert.equal(verdict.status, '5.7.1');
    assert.equal(verdict.recipient, 'reader@example.org');
  });

  it('takes a 5.1.1 report for hard, with its recipient (lower-cased), status and the diagnostic as reason', async () => {
    const verdict = await classifyBounce(
      deliveryReport({ recipients: [{ address: 'Gone.Reader@Example.ORG', status: '5.1.1', diagnostic: '550 5.1.1 <Gone.Reader@Example.ORG>: Recipient address rejected: User unknown in virtual mailbox table' }] }),
    );
    assert.equal(verdict.kind, 'hard');
    assert.equal(verdict.recipient, 'gone.reader@example.org');
    assert.equal(verdict.status, '5.1.1');
    assert.match(verdict.reason ?? '', /User unknown/);
    assert.ok((verdict.reason ?? '').length <= 200);
  });

  it('reads the same from bytes and from text', async () => {
    const text = deliveryReport({ recipients: [{ address: 'gone@example.org', status: '5.1.1', diagnostic: '550 5.1.1 user unknown' }] });
    assert.deepEqual(await classifyBounce(Buffer.from(text)), await classifyBounce(text));
  });

  it('is hard only when every failed recipient is: one full mailbox beside an unknown user is soft', async () => {
    const verdict = await classifyBounce(
      deliveryReport({
        recipients: [
          { address: 'gone@example.org', status: '5.1.1', diagnostic: '550 5.1.1 user unknown' },
          { address: 'full@example.org', status: '5.2.2', diagnostic: '552 5.2.2 mailbox full' },
        ],
      }),
    );
    assert.equal(verdict.kind, 'soft');
  });

  it('takes a delay, even one naming an unknown user, for soft', async () => {
    const verdict = await classifyBounce(
      deliveryReport({ recipients: [{ address: 'slow@example.org', action: 'delayed', status: '4.4.1', diagnostic: 'connect to mx.example.org: Connection timed out; user unknown?' }], subject: 'Delayed Mail (still being retried)' }),
    );
    assert.equal(verdict.kind, 'soft');
  });

  it('takes a null MX (RFC 7505, reply 556) for hard and a "user unknown" at the end of DATA for soft', async () => {
    const nullMx = await classifyBounce(
      deliveryReport({ recipients: [{ address: 'anyone@parked.example', status: '5.1.10', diagnostic: '556 5.1.10 Recipient address rejected: Domain parked.example does not accept mail (nullMX)' }] }),
    );
    assert.equal(nullMx.kind, 'hard');
    const afterData = await classifyBounce(
      [
        'Return-Path: <>',
        'From: Mail Delivery System <MAILER-DAEMON@mx.example.net>',
        'To: news@example.com',
        'Subject: Mail delivery failed: returning message to sender',
        'X-Failed-Recipients: reader@carrier.example',
        '',
        'A message that you sent could not be delivered to one or more of its recipients.',
        '',
        '  reader@carrier.example',
        '    host mx.carrier.example [192.0.2.1]',
        '    SMTP error from remote mail server after end of data:',
        '    550 Unknown user reader@carrier.example',
        '',
      ].join('\n'),
    );
    assert.equal(afterData.kind, 'soft');
    assert.equal(afterData.recipient, 'reader@carrier.example');
  });

  it('reads the command a refusal answered from a session transcript: at DATA soft, a pipelined RCPT TO answer hard', async () => {
    /** A Sendmail-like report whose transcript ends with `lines`; its status (5.0.0) decides nothing. */
    const transcript = (lines: string[]) =>
      [
        'Return-Path: <>',
        'From: Mail Delivery Subsystem <MAILER-DAEMON@mx.example.net>',
        'To: news@example.com',
        'Subject: Returned mail: see transcript for details',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="t"',
        '',
        '--t',
        '',
        '   ----- Transcript of session follows -----',
        '... while talking to mx.example.org.:',
        '>>> DATA',
        ...lines,
        '',
        '--t',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mx.example.net',
        '',
        'Final-Recipient: RFC822; reader@example.org',
        'Action: failed',
        'Status: 5.0.0',
        'Diagnostic-Code: SMTP; 550 <reader@example.org>... User unknown',
        '',
        '--t--',
        '',
      ].join('\n');
    // The server took the recipient and refused the message: a filter's "user unknown".
    const atData = await classifyBounce(transcript(['<<< 550 <reader@example.org>... User unknown', '554 5.0.0 Service unavailable']));
    assert.equal(atData.kind, 'soft');
    // The same reply read after DATA, followed by Sendmail's verdict on the recipient, answered RCPT TO.
    const pipelined = await classifyBounce(
      transcript(['<<< 550 <reader@example.org>... User unknown', '550 5.1.1 <reader@example.org>... User unknown', '<<< 554 5.5.1 Error: no valid recipients']),
    );
    assert.equal(pipelined.kind, 'hard');
  });

  it('takes a refusal of RCPT TO that names the recipient unknown for hard, whatever code it was filed under', async () => {
    const notice = (command: string) =>
      [
        'From: Mail Delivery Subsystem <MAILER-DAEMON@relay.example.net>',
        'To: news@example.com',
        'Subject: Returned mail: Requested action not taken',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="r"',
        '',
        '--r',
        '',
        '   ----- Transcript of session follows -----',
        `>>> ${command}`,
        '<<< 553 Invalid recipient reader@example.org (Mode: normal)',
        '',
        '--r',
        'Content-Type: message/delivery-status',
        '',
        'Final-Recipient: RFC822; reader@example.org',
        'Action: failed',
        'Status: 5.7.1',
        'Diagnostic-Code: SMTP; 553 Invalid recipient reader@example.org (Mode: normal)',
        '',
        '--r--',
        '',
      ].join('\n');
    assert.equal((await classifyBounce(notice('RCPT TO:<reader@example.org>'))).kind, 'hard');
    // The same 5.7.1 answering the message itself stays a policy refusal.
    assert.equal((await classifyBounce(notice('DATA'))).kind, 'soft');
  });

  it('takes a bare "550 Unknown user" that names no command for soft, and the same in reply to RCPT TO for hard', async () => {
    const report = (diagnostic: string) =>
      deliveryReport({ recipients: [{ address: 'reader@example.org', status: '', diagnostic }] }).replace('Status: \n', '');
    assert.equal((await classifyBounce(report('550 Unknown user reader@example.org'))).kind, 'soft');
    assert.equal((await classifyBounce(report('550 Unknown user reader@example.org (in reply to RCPT TO command)'))).kind, 'hard');
    // A domain that does not exist needs no command to be hard.
    assert.equal((await classifyBounce(report('550 Host unknown (Authoritative answer from name server)'))).kind, 'hard');
  });

  it('reads a notice in its own words under the failed address: an MX that says "no SMTP service" is hard', async () => {
    const verdict = await classifyBounce(
      [
        'Return-path: <>',
        'X-Failed-Recipients: reader@parked.example',
        'Auto-Submitted: auto-replied',
        'From: mailer-daemon@mx.example.net',
        'To: news@example.com',
        'Subject: Mail delivery failed: returning message to sender',
        '',
        'This message was created automatically by mail delivery software.',
        '',
        'A message that you sent could not be delivered to one or more of its',
        'recipients. This is a permanent error. The following address(es) failed:',
        '',
        '  reader@parked.example',
        '    an MX or SRV record indicated no SMTP service',
        '',
      ].join('\n'),
    );
    assert.equal(verdict.kind, 'hard');
    assert.equal(verdict.recipient, 'reader@parked.example');
    assert.equal(verdict.reason, 'an MX or SRV record indicated no SMTP service');
  });

  it('recognises a notice by its set phrases and its language, whoever sends it: a Japanese full mailbox is soft', async () => {
    const verdict = await classifyBounce(
      [
        'From: no-reply@mail.example.jp',
        'To: news@example.com',
        'Subject: =?UTF-8?B?44Oh44O844Or44Ko44Op44O86YCa55+l?=',
        'Content-Type: text/plain; charset="ISO-2022-JP"',
        '',
        // UTF-8 under a 7-bit label: read as the UTF-8 it is.
        '送信先のメールボックスが一杯のため、送信できませんでした。',
        '',
        'Your mail sent on: Thu, 29 Apr 2013 23:45:22 +0900',
        '     Could not be delivered to: <reader@example.jp>',
        '     As their mailbox is full.',
        '',
      ].join('\n'),
    );
    assert.equal(verdict.kind, 'soft');
    assert.equal(verdict.recipient, 'reader@example.jp');
    assert.match(verdict.reason ?? '', /送信先のメールボックス/);
  });

  it('takes "the group may not exist" in any language for soft, and a foreign "address does not exist" for hard', async () => {
    const groupNotice = (text: string) =>
      [
        'From: Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
        'To: news@example.com',
        'Subject: Delivery Status Notification (Failure)',
        'X-Failed-Recipients: readers@groups.example.com',
        'Content-Type: text/plain; charset="UTF-8"',
        '',
        text,
        '',
      ].join('\n');
    for (const text of [
      'Wir möchten Sie darüber informieren, dass die Gruppe (readers) möglicherweise nicht existiert oder Sie nicht berechtigt sind, Nachrichten zu posten.',
      "Nous vous informons que le groupe (readers) n'existe peut-être pas ou que vous n'êtes pas autorisé à publier des messages.",
      'Queremos informarte de que el grupo (readers) quizás no exista o bien no tienes los permisos necesarios.',
    ]) {
      assert.equal((await classifyBounce(groupNotice(text))).kind, 'soft', text);
    }
    assert.equal((await classifyBounce(groupNotice('Die Adresse readers@groups.example.com existiert nicht.'))).kind, 'hard');
  });

  it('takes an ARF feedback report for a complaint about the recipient it names', async () => {
    const verdict = await classifyBounce(
      [
        'From: Feedback Loop <fbl@isp.example>',
        'To: abuse@example.com',
        'Subject: FW: Spring opening hours',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=feedback-report; boundary="fbl"',
        '',
        '--fbl',
        'Content-Type: text/plain',
        '',
        'This is an email abuse report for an email message received from IP 192.0.2.10.',
        '',
        '--fbl',
        'Content-Type: message/feedback-report',
        '',
        'Feedback-Type: abuse',
        'User-Agent: ISP-FBL/1.0',
        'Version: 1',
        'Original-Mail-From: <bounces+abc@example.com>',
        'Original-Rcpt-To: <Reader@Example.org>',
        '',
        '--fbl',
        'Content-Type: message/rfc822',
        '',
        RETURNED,
        '',
        '--fbl--',
        '',
      ].join('\n'),
    );
    assert.equal(verdict.kind, 'complaint');
    assert.equal(verdict.recipient, 'reader@example.org');
    assert.equal(verdict.original?.['message-id'], '<news-2024-03.41c7@example.com>');
  });

  it('takes an out-of-office reply, in English or German, for none', async () => {
    const english = await classifyBounce(
      ['From: Reader <reader@example.org>', 'To: news@example.com', 'Subject: Out of Office: Spring opening hours', 'Auto-Submitted: auto-replied', '', 'I am away until Monday.', ''].join('\n'),
    );
    assert.equal(english.kind, 'none');
    // No Auto-Submitted header: the subject alone says it.
    const german = await classifyBounce(['From: Leser <leser@example.de>', 'To: news@example.com', 'Subject: Abwesenheitsnotiz', '', 'Ich bin bis Montag nicht im Büro.', ''].join('\n'));
    assert.equal(german.kind, 'none');
    // Recognised as replies (the mailbox files them as processed), unlike ordinary mail.
    assert.equal(english.reason, 'automatic reply');
    assert.equal(german.reason, 'automatic reply');
  });

  it('takes ordinary mail quoting an SMTP error, and a report of a delivery, for none', async () => {
    const person = await classifyBounce(
      ['From: Jonas <jonas@example.net>', 'To: hello@example.com', 'Subject: My old address', '', 'Mail to my old box now gets "550 5.1.1 User unknown". Please use this one.', ''].join('\n'),
    );
    assert.equal(person.kind, 'none');
    assert.equal(person.reason, undefined, 'ordinary mail is not a recognised report');
    const delivered = await classifyBounce(deliveryReport({ recipients: [{ address: 'reader@example.org', action: 'relayed', status: '2.0.0', diagnostic: '250 2.0.0 Ok: queued' }], subject: 'Successful Mail Delivery Report' }));
    assert.equal(delivered.kind, 'none');
  });

  it('gives in sentTo every address the bounce was sent to, the VERP address of To and Delivered-To among them', async () => {
    const verdict = await classifyBounce(
      deliveryReport({
        to: 'Bounces <Bounces+NEWS.41C7@Example.com>',
        deliveredTo: 'bounces+news.41c7@example.com',
        recipients: [{ address: 'gone@example.org', status: '5.1.1', diagnostic: '550 5.1.1 user unknown' }],
      }),
    );
    assert.ok(verdict.sentTo.includes('bounces+news.41c7@example.com'), verdict.sentTo.join(', '));
    assert.ok(!verdict.sentTo.includes('gone@example.org'), 'the failed recipient is not where the bounce was sent');
    assert.deepEqual(verdict.sentTo, [...new Set(verdict.sentTo)], 'each address once');
    assert.ok(verdict.sentTo.every((address) => address === address.toLowerCase()));
  });

  it('gives in original the Message-ID and X-Postbox-* headers of the returned message, and never its words as the reason', async () => {
    const verdict: BounceVerdict = await classifyBounce(
      deliveryReport({ recipients: [{ address: 'reader@example.org', status: '5.2.2', diagnostic: '552 5.2.2 Mailbox full' }], returned: RETURNED }),
    );
    assert.deepEqual(verdict.original, {
      'message-id': '<news-2024-03.41c7@example.com>',
      'x-postbox-campaign': 'spring-2024',
      'x-postbox-form': '/newsletter',
    });
    // The returned text says "does not exist"; the failure is a full mailbox.
    assert.equal(verdict.kind, 'soft');
  });
});
