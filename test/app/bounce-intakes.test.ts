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
});
