// Reply notifications and the owner's mail (docs/comments.md "Reply notifications", "The owner's mail") through
// the composed blog service, the durable queue and a real SMTP server on 127.0.0.1: the confirmation goes once
// per address, a reply is mailed only once it is published and never to its own author, the one-click POST of
// List-Unsubscribe stops the mails, the owner's Approve link decides once under a burst, and no page shows the
// commenter's address.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readJsonLines } from '../support/json-lines.js';
import { rawHeaderValues, startSmtpServer, type ReceivedMessage, type TestSmtpServer } from '../support/smtp-server.js';
import { startCommentsApp, type CommentsApp } from './comments-app.js';

const OWNER = 'owner@blog.example.com';
const ADA = 'ada@example.org';
const BOB = 'bob@example.net';

let smtp: TestSmtpServer;
let app: CommentsApp;

before(async () => {
  smtp = await startSmtpServer();
  app = await startCommentsApp(
    { moderation: 'first', notify_owner: OWNER },
    { mail: { transport: 'smtp', from: 'Blog <blog@blog.example.com>', smtp: { host: '127.0.0.1', port: smtp.port, secure: false } } },
  );
});

after(async () => {
  await app.close();
  await smtp.close();
});

const to = (message: ReceivedMessage) => message.recipients.join(',');
const linkIn = (message: ReceivedMessage, pattern: RegExp) => {
  const found = pattern.exec(message.parsed.text ?? '')?.[0];
  assert.ok(found, `a link matching ${pattern} in ${message.parsed.subject}`);
  return found.replace('https://blog.example.com', '');
};
const post = async (fields: Record<string, unknown>) => (await app.post('hello', fields)).json() as { status: string; id: string };
const total = async () => ((await app.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments' })).json() as { total: number }).total;
const pages: string[] = [];
const page = async (method: 'GET' | 'POST', url: string, payload?: string) => {
  const answer = await app.service.inject({ method, url, ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/x-www-form-urlencoded' } }) });
  pages.push(answer.body);
  return answer;
};

describe('comment mails over SMTP', () => {
  let adaComment = '';
  let approveLink = '';

  it('mails the confirmation once per address, and the owner once per comment that waits', async () => {
    adaComment = (await post({ name: 'Ada', email: ADA, text: 'First!', notify: true })).id;
    await post({ name: 'Ada', email: ADA, text: 'Second, still waiting', notify: true });
    const messages = await smtp.waitForMessages(3);
    const toAda = messages.filter((message) => to(message) === ADA);
    assert.equal(toAda.length, 1, 'one confirmation for two opt-ins');
    assert.match(toAda[0]!.parsed.subject ?? '', /Confirm reply notifications/);
    const toOwner = messages.filter((message) => to(message) === OWNER);
    assert.equal(toOwner.length, 2);
    assert.ok(toOwner.every((message) => !(message.parsed.text ?? '').includes(ADA)), 'the owner mail does not name the address');

    const confirm = linkIn(toAda[0]!, /https:\/\/blog\.example\.com\/api\/blog\/comments\/confirm\?token=\S+/);
    assert.equal((await page('GET', confirm)).statusCode, 200);
    assert.equal((await page('GET', confirm)).statusCode, 200, 'a GET changes nothing: the link still shows its button');
    const confirmed = await page('POST', confirm);
    assert.equal(confirmed.statusCode, 200);
    assert.match(confirmed.body, /Reply notifications confirmed/);
    assert.equal((await page('POST', confirm)).statusCode, 410, 'the token works once');

    const first = toOwner.find((message) => (message.parsed.text ?? '').includes('First!'))!;
    approveLink = linkIn(first, /https:\/\/blog\.example\.com\/api\/blog\/comments\/moderate\?token=\S+action=approve/);
  });

  it("decides once when the owner's Approve link is posted many times at once", async () => {
    const shown = await page('GET', approveLink);
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, /<form method="post"/);
    assert.equal(await total(), 0, 'the GET approved nothing');
    const burst = await Promise.all(Array.from({ length: 8 }, () => page('POST', approveLink)));
    assert.deepEqual(burst.map((answer) => answer.statusCode).sort(), [200, 410, 410, 410, 410, 410, 410, 410]);
    assert.equal(await total(), 1);
    assert.equal((await page('GET', approveLink)).statusCode, 410);
    const audit = (await readJsonLines(path.join(app.dir, 'data', 'admin-audit.jsonl'))) as Array<{ event: string; user?: string; subject?: string }>;
    assert.deepEqual(
      audit.filter((line) => line.event === 'comment_approved').map((line) => [line.user, line.subject]),
      [[undefined, `hello (en) comment ${adaComment}`]],
      'the decision is audited once, without a user',
    );
  });

  it('mails a reply only once it is approved, never for a reply of the same address, and stops after the one-click unsubscribe', async () => {
    const before = smtp.received.length;
    const reply = await post({ name: 'Bob', email: BOB, text: 'A reply from Bob', parent: adaComment });
    assert.equal(reply.status, 'pending');
    // The owner's mail about Bob's reply comes; nothing to Ada while the reply waits.
    await smtp.waitForMessage('the owner mail of the reply', (message) => to(message) === OWNER && (message.parsed.text ?? '').includes('A reply from Bob'));
    assert.equal(smtp.received.slice(before).filter((message) => to(message) === ADA).length, 0);

    const { cookie, csrf } = await app.signIn('jane');
    const approved = await app.service.inject({
      method: 'POST',
      url: '/admin/comments',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf_token: csrf, action: 'approve', slug: 'hello', lang: 'en', id: reply.id }).toString(),
    });
    assert.equal(approved.statusCode, 303);
    const mail = await smtp.waitForMessage('the reply mail', (message) => to(message) === ADA && /Bob replied/.test(message.parsed.subject ?? ''));
    assert.match(mail.parsed.text ?? '', /> A reply from Bob/);
    assert.doesNotMatch(mail.parsed.text ?? '', new RegExp(BOB), "the reply's address is not in the mail");
    assert.deepEqual(rawHeaderValues(mail.raw, 'List-Unsubscribe-Post'), ['List-Unsubscribe=One-Click']);
    const unsubscribe = /^<(https:\/\/[^>]+)>$/.exec(rawHeaderValues(mail.raw, 'List-Unsubscribe')[0] ?? '')?.[1];
    assert.ok(unsubscribe, 'List-Unsubscribe names an https URL');
    assert.match(mail.parsed.text ?? '', /comments\/unsubscribe\?token=[A-Za-z0-9_-]{22}\n/, 'and the body a link that stops all');

    // Ada answers in her own thread (her address is trusted now, so it is published at once): no mail to her.
    assert.equal((await post({ name: 'Ada', email: 'ADA@example.org', text: 'Thanks Bob', parent: adaComment })).status, 'published');
    // Bob, trusted too, replies again: that one is mailed, and it is the only other mail Ada gets.
    assert.equal((await post({ name: 'Bob', email: BOB, text: 'You are welcome', parent: adaComment })).status, 'published');
    await smtp.waitForMessage('the second reply mail', (message) => to(message) === ADA && (message.parsed.text ?? '').includes('You are welcome'));
    const replies = smtp.received.filter((message) => to(message) === ADA && /replied/.test(message.parsed.subject ?? ''));
    assert.equal(replies.length, 2);
    assert.ok(replies.every((message) => !(message.parsed.text ?? '').includes('Thanks Bob')), 'never a mail about her own reply');

    // RFC 8058: a POST of List-Unsubscribe=One-Click to the header's URL.
    const path = unsubscribe.replace('https://blog.example.com', '');
    const shown = await page('GET', path);
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, /Stop the mails about replies to this comment/);
    const oneClick = await page('POST', path, 'List-Unsubscribe=One-Click');
    assert.equal(oneClick.statusCode, 200);
    assert.match(oneClick.body, /No more reply notifications/);

    assert.equal((await post({ name: 'Bob', email: BOB, text: 'Third reply, not mailed', parent: adaComment })).status, 'published');
    // A comment that waits, sent after, brings the owner a mail: by then a mail about Bob's third reply would be queued.
    await post({ name: 'Carol', email: 'carol@example.com', text: 'Marker comment' });
    await smtp.waitForMessage('the owner mail of the marker', (message) => to(message) === OWNER && (message.parsed.text ?? '').includes('Marker comment'));
    assert.ok(!smtp.received.some((message) => (message.parsed.text ?? '').includes('Third reply')), 'no mail after the unsubscribe');
  });

  it("replies from /admin as the site, published at once and mailed to the opted-in author; edits re-render; both audited", async () => {
    // Ada is confirmed (she stopped one thread only) and trusted: a new comment is published, with no new confirmation.
    const confirmations = smtp.received.filter((message) => /Confirm/.test(message.parsed.subject ?? '')).length;
    const comment = await post({ name: 'Ada', email: ADA, text: 'A question for the author', notify: true });
    assert.equal(comment.status, 'published');
    const { cookie, csrf } = await app.signIn('jane');
    const act = (fields: Record<string, string>) =>
      app.service.inject({
        method: 'POST',
        url: '/admin/comments',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ csrf_token: csrf, slug: 'hello', lang: 'en', ...fields }).toString(),
      });
    const form = await act({ action: 'reply', id: comment.id });
    assert.equal(form.statusCode, 200);
    assert.match(form.body, /<textarea[^>]*name="text"/);
    pages.push(form.body);
    const replied = await act({ action: 'reply', id: comment.id, text: 'The *answer*' });
    assert.equal(replied.statusCode, 303);
    assert.equal(replied.headers.location, '/admin/comments?notice=replied');
    const thread = (await app.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments' })).json() as { comments: Array<{ id: string; parent: string; author: { name: string; url: string }; html: string }> };
    const reply = thread.comments.find((one) => one.parent === comment.id)!;
    assert.deepEqual(reply.author, { name: 'Blog', url: 'https://blog.example.com' });
    assert.equal(reply.html, '<p>The <em>answer</em></p>');
    const mail = await smtp.waitForMessage("the site's reply mail", (message) => to(message) === ADA && (message.parsed.text ?? '').includes('The *answer*'));
    assert.match(mail.parsed.subject ?? '', /^Blog replied/);
    assert.equal(smtp.received.filter((message) => /Confirm/.test(message.parsed.subject ?? '')).length, confirmations);

    assert.equal((await act({ action: 'edit', id: reply.id, text: '' })).statusCode, 400, 'an empty text is refused');
    const edited = await act({ action: 'edit', id: reply.id, text: 'The **better** answer' });
    assert.equal(edited.headers.location, '/admin/comments?notice=edited');
    const after = (await app.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments' })).json() as { comments: Array<{ id: string; html: string }> };
    assert.equal(after.comments.find((one) => one.id === reply.id)!.html, '<p>The <strong>better</strong> answer</p>');
    const listed = await app.service.inject({ method: 'GET', url: '/admin/comments', headers: { cookie } });
    assert.match(listed.body, /Blog \(the site&#39;s, by jane\)|Blog \(the site's, by jane\)/);

    const audit = (await readJsonLines(path.join(app.dir, 'data', 'admin-audit.jsonl'))) as Array<{ event: string; user?: string; subject?: string }>;
    const events = audit.filter((line) => line.event === 'comment_replied' || line.event === 'comment_edited').map((line) => [line.event, line.user, line.subject]);
    assert.deepEqual(events, [
      ['comment_replied', 'jane', `hello (en) comment ${comment.id}`],
      ['comment_edited', 'jane', `hello (en) comment ${reply.id}`],
    ]);
  });

  it('shows the address on no page', async () => {
    const { cookie } = await app.signIn('jane');
    pages.push((await app.service.inject({ method: 'GET', url: '/admin/comments', headers: { cookie } })).body);
    pages.push((await app.service.inject({ method: 'GET', url: '/api/blog/posts/hello/comments' })).body);
    assert.ok(pages.length > 10);
    for (const body of pages) assert.doesNotMatch(body, /ada@example|bob@example|carol@example/i);
  });
});

describe('comment mails without [mail]', () => {
  it('takes notify and does nothing with it: no link pages are served', async () => {
    const quiet = await startCommentsApp({ moderation: 'none' });
    try {
      const answer = await quiet.post('hello', { name: 'Ada', email: ADA, text: 'Hi', notify: true });
      assert.equal(answer.statusCode, 202);
      assert.equal((answer.json() as { status: string }).status, 'published');
      assert.equal((await quiet.service.inject({ method: 'GET', url: '/api/blog/comments/confirm?token=x' })).statusCode, 404);
    } finally {
      await quiet.close();
    }
  });
});
