// The bounce intakes as `postbox serve` builds them (src/app/bounce-intakes.ts): `[mail.bounces.webhooks]` in the
// config gives the forms listener POST /bounces/<provider> for the configured providers only, and a genuine report
// reaches the suppression policy (docs/bounces.md); SNS is reached through the fetch the test hands in.
// `[mail.bounces.imap]` has the mailbox read (a real Dovecot) into the same policy.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeServices } from '../../src/app/compose.js';
import { POSTMARK_CREDENTIALS, postmarkRequest, sesBounce, SNS_CERT_URL, SNS_TOPIC, snsCertificate, snsRequest } from '../support/bounce-webhooks.js';
import { loadTestConfig } from '../support/config.js';
import { startDovecotServer } from '../support/dovecot-server.js';
import { contactForm, FROM_ADDRESS, OWNER_ADDRESS, useTestFormsService } from '../support/forms-app.js';
import { captureLogs } from '../support/log-capture.js';
import { withTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { driveService } from '../support/http.js';
import { isAddressedTo, startSmtpServer } from '../support/smtp-server.js';

const start = useTestFormsService();

/** Serves the test's SNS certificate; every other URL is a 404. */
const fakeSns: typeof fetch = async (input) => {
  const url = input instanceof Request ? input.url : String(input);
  return url === SNS_CERT_URL ? new Response(snsCertificate().pem) : new Response('not found', { status: 404 });
};

describe('the bounce webhooks of [mail.bounces.webhooks]', () => {
  it('answer on the forms listener for the configured providers, and hand reports to the suppression policy', async () => {
    const forms = await start({
      extra: { mail: { bounces: { webhooks: { postmark: POSTMARK_CREDENTIALS, ses: { topic_arns: [SNS_TOPIC] } } } } },
      deps: { fetch: fakeSns },
    });
    const post = (provider: string, request: { headers: Record<string, string>; body: string }) =>
      forms.app.inject({ method: 'POST', url: `/bounces/${provider}`, headers: request.headers, payload: request.body });

    const postmark = await post('postmark', postmarkRequest({ RecordType: 'Bounce', Type: 'HardBounce', Email: 'Gone@example.org', From: 'forms@example.com' }));
    assert.equal(postmark.statusCode, 200, postmark.body);
    const ses = await post('ses', snsRequest(sesBounce([{ emailAddress: 'also-gone@example.org', status: '5.1.1' }])));
    assert.equal(ses.statusCode, 200, ses.body);
    assert.equal(await forms.backend.suppressions.isSuppressed('gone@example.org'), true);
    assert.equal(await forms.backend.suppressions.isSuppressed('also-gone@example.org'), true);

    assert.equal((await post('postmark', postmarkRequest({ RecordType: 'Bounce', Type: 'HardBounce', Email: 'x@example.org' }, { ...POSTMARK_CREDENTIALS, password: 'guess' }))).statusCode, 401);
    assert.equal((await post('mailgun', { headers: {}, body: '{}' })).statusCode, 404);
  });

  it('are not routed without [mail.bounces.webhooks]', async () => {
    const forms = await start();
    const response = await forms.app.inject({ method: 'POST', url: '/bounces/postmark', ...postmarkRequest({ RecordType: 'Bounce' }), payload: '{}' });
    assert.equal(response.statusCode, 404);
  });
});

describe('the bounce mailbox of [mail.bounces.imap]', () => {
  it('is read at start into the suppression policy', async () => {
    const dovecot = await startDovecotServer();
    try {
      // A bounce to a tag this install never signed: the policy takes it and ignores it as forged.
      const forgedTag = 'a'.repeat(32);
      await dovecot.append(
        [
          'From: MAILER-DAEMON@mx.example.net',
          `To: bounces+${forgedTag}@example.com`,
          'Subject: Undelivered Mail Returned to Sender',
          'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
          '',
          '--b',
          'Content-Type: message/delivery-status',
          '',
          'Reporting-MTA: dns; mx.example.net',
          '',
          'Final-Recipient: rfc822; gone@example.org',
          'Action: failed',
          'Status: 5.1.1',
          '--b--',
          '',
        ].join('\r\n'),
      );
      await withTempDir('bounce-mailbox', async (dir) => {
        const imap = { host: dovecot.host, port: dovecot.port, secure: false, user: dovecot.user, password: dovecot.password, poll_seconds: 3600 };
        const config = loadTestConfig(
          { data_dir: dir, server: { listen: '127.0.0.1:0' }, mail: { from: FROM_ADDRESS, to: OWNER_ADDRESS, queue: false, bounces: { address: 'bounces@example.com', imap } }, forms: [contactForm()] },
          dir,
        );
        const logs = captureLogs();
        const composed = await composeServices(config, logs);
        try {
          await waitFor('the bounce to be moved to Processed', async () => ((await dovecot.counts()).Processed === 1 ? true : undefined));
          const ignored = logs.lines().find((line) => line.event === 'bounce_ignored');
          assert.deepEqual([ignored?.source, ignored?.reason], ['imap', 'forged_tag']);
        } finally {
          await composed.close();
        }
        assert.ok(logs.lines().some((line) => line.event === 'bounce_mailbox_started'));
      });
    } finally {
      await dovecot.close();
    }
  });

  it('end to end: a hard bounce of a receipt, as the MTA returns it to the tagged sender, stops later receipts to that address while the owner mail still goes', async () => {
    const [dovecot, smtp] = await Promise.all([startDovecotServer(), startSmtpServer()]);
    try {
      await withTempDir('bounce-end-to-end', async (dir) => {
        const imap = { host: dovecot.host, port: dovecot.port, secure: false, user: dovecot.user, password: dovecot.password, poll_seconds: 1 };
        const mail = { from: FROM_ADDRESS, to: OWNER_ADDRESS, queue: false, smtp: { host: smtp.host, port: smtp.port, secure: false }, bounces: { address: 'bounces@example.com', imap } };
        const config = loadTestConfig({ data_dir: dir, server: { listen: '127.0.0.1:0' }, mail, forms: [contactForm()] }, dir);
        const composed = await composeServices(config, captureLogs());
        try {
          const forms = driveService(composed.services.find((service) => service.name === 'forms')!);
          const submit = (email: string) =>
            forms.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'Ada Lovelace', email, message: 'Hello, a website for my bakery please.' }) });
          assert.equal((await submit('gone@example.org')).statusCode, 200);
          const receipt = await smtp.waitForMessage('the receipt', (message) => isAddressedTo(message, 'gone@example.org'));
          assert.match(receipt.mailFrom, /^bounces\+[a-z0-9]+@example\.com$/, 'the receipt left with a tagged envelope sender');
          const owner = await smtp.waitForMessage('the owner mail', (message) => isAddressedTo(message, OWNER_ADDRESS));
          assert.match(owner.mailFrom, /^bounces\+/, 'the owner mail too');

          // What the visitor's MTA sends back: a delivery report to the envelope sender.
          await dovecot.append(
            [
              'From: MAILER-DAEMON@mx.example.org',
              `To: ${receipt.mailFrom}`,
              'Subject: Undelivered Mail Returned to Sender',
              'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
              '',
              '--b',
              'Content-Type: text/plain',
              '',
              'Your message could not be delivered to gone@example.org: no such user.',
              '--b',
              'Content-Type: message/delivery-status',
              '',
              'Reporting-MTA: dns; mx.example.org',
              '',
              'Final-Recipient: rfc822; gone@example.org',
              'Action: failed',
              'Status: 5.1.1',
              'Diagnostic-Code: smtp; 550 5.1.1 <gone@example.org>: Recipient address rejected: User unknown',
              '--b--',
              '',
            ].join('\r\n'),
          );
          await waitFor('the bounce to be read and moved to Processed', async () => ((await dovecot.counts()).Processed === 1 ? true : undefined), 15_000);
          smtp.received.length = 0;

          assert.equal((await submit('gone@example.org')).statusCode, 200, 'the visitor is answered as ever');
          await smtp.waitForMessage('the owner mail of the second submission', (message) => isAddressedTo(message, OWNER_ADDRESS));
          assert.equal(smtp.received.filter((message) => isAddressedTo(message, 'gone@example.org')).length, 0, 'no receipt to the suppressed address');
        } finally {
          await composed.close();
        }
      });
    } finally {
      await Promise.all([dovecot.close(), smtp.close()]);
    }
  });
});
