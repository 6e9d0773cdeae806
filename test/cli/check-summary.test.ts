// The summary of `postbox check`: what the owner must see before trusting the file, the mail transport above all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeConfig } from '../../src/cli/check-summary.js';
import { loadTestConfig } from '../support/config.js';

const FORMS = [{ path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], archive: 'contact.jsonl' }];

describe('describeConfig', () => {
  it('says that the file transport writes mail to the outbox and sends nothing', () => {
    const config = loadTestConfig({ data_dir: './data', mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms: FORMS }, '/srv/site');
    assert.equal(
      describeConfig(config),
      [
        'data_dir: /srv/site/data',
        'mail: written to files under /srv/site/data/outbox, not sent (transport = "file"; add [mail.smtp] to send it)',
        'forms service on 127.0.0.1:8080:',
        '  /contact (contact), origins: https://example.com; 10/hour, archive contact.jsonl',
        'recommended: [forms.spam] proof_of_work = true for /contact: a honeypot and a rate limit stop few bots today (docs/spam.md)',
        '',
      ].join('\n'),
    );
  });

  it('names the SMTP server mail goes through', () => {
    const smtp = (host: string, secure: boolean) =>
      describeConfig(loadTestConfig({ mail: { from: 'forms@example.com', to: 'owner@example.com', smtp: { host, port: 465, secure } }, forms: FORMS }, '/srv'));
    assert.match(smtp('smtp.example.com', true), /^mail: sent through the SMTP server smtp\.example\.com:465 \(implicit TLS\)$/m);
    assert.match(smtp('::1', false), /^mail: sent through the SMTP server \[::1\]:465 \(STARTTLS when offered\)$/m);
    assert.doesNotMatch(smtp('smtp.example.com', false), /not sent/);
  });

  it('names the blog service and its posts folder', () => {
    const config = loadTestConfig({ site: { title: 'Blog', base_url: 'https://example.com' }, blog: { listen: '127.0.0.1:9000', content_dir: 'posts' } }, '/srv');
    assert.equal(describeConfig(config), 'data_dir: /srv/data\nblog service on 127.0.0.1:9000, posts from /srv/posts\n');
  });

  it('names the handle the blog is followed by', () => {
    const config = loadTestConfig(
      { mail: { from: 'blog@example.com' }, site: { title: 'Blog', base_url: 'https://example.com' }, blog: { content_dir: 'posts', activitypub: { enabled: true, username: 'news' } } },
      '/srv',
    );
    assert.match(describeConfig(config), /^followed from the fediverse as @news@example\.com \(docs\/activitypub\.md\)$/m);
  });

  it('says where /admin changes are committed and pushed, never the remote\'s token', () => {
    const blog = (git: Record<string, unknown>) =>
      describeConfig(loadTestConfig({ site: { title: 'Blog', base_url: 'https://example.com' }, blog: { content_dir: 'posts', git } }, '/srv'));
    const summary = blog({ enabled: true, remote: 'https://deploy:s3cret@git.example.com/site.git', pull_seconds: 30 });
    assert.match(summary, /posts from \/srv\/posts, each \/admin change a git commit pushed to git\.example\.com\/site\.git \(main, fetched every 30 s\)$/m);
    assert.doesNotMatch(summary, /s3cret|deploy/);
    assert.match(blog({ enabled: true, remote: 'git@github.com:owner/site.git' }), /pushed to github\.com:owner\/site\.git/);
    assert.doesNotMatch(blog({ enabled: false }), /git/);
  });

  it('recommends proof of work in one line naming every form without it, and lists the spam rules of each form', () => {
    const forms = [
      { path: '/a', type: 'contact', spam: { proof_of_work: true, max_links: 1, block_disposable: true, blocked_words: ['x', 'y'], action: 'reject' } },
      { path: '/b', type: 'contact' },
      { path: '/c', type: 'feedback', spam: { languages: ['en', 'de'] } },
    ];
    const summary = describeConfig(loadTestConfig({ mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms }, '/srv'));
    assert.match(summary, /^  \/a \(contact\).*proof of work, spam: at most 1 links, no disposable addresses, 2 blocked words \(reject\)$/m);
    assert.match(summary, /^  \/c \(feedback\).*spam: languages en, de \(quarantine\)$/m);
    assert.equal(summary.match(/^recommended:/gm)?.length, 1, 'once, not once per form');
    assert.match(summary, /^recommended: \[forms\.spam\] proof_of_work = true for \/b, \/c:/m);
    const allWithWork = describeConfig(loadTestConfig({ mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms: [{ path: '/a', type: 'contact', spam: { proof_of_work: true } }] }, '/srv'));
    assert.doesNotMatch(allWithWork, /recommended/);
  });

  it('names where the records live in PostgreSQL, never its password', () => {
    const config = loadTestConfig(
      { mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms: FORMS, state: { backend: 'postgres', url: 'postgres://postbox:s3cret@db.example:6432/forms' } },
      '/srv',
    );
    const summary = describeConfig(config);
    assert.match(summary, /^state: records \(archives, newsletter, mail queue, campaigns, admin sessions\) in PostgreSQL at db\.example:6432\/forms$/m);
    assert.doesNotMatch(summary, /s3cret|postbox:/);
    assert.doesNotMatch(describeConfig(loadTestConfig({ mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms: FORMS }, '/srv')), /^state:/m);
  });
});
