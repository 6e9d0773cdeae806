// The campaign mail: a published post as an inline-styled HTML fragment with absolute URLs and a plain-text
// twin, wrapped per recipient with an escaped footer; and the result sent over SMTP to a real server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { load } from 'cheerio';
import type { PublishedPost } from '../../../src/blog/published-post.js';
import { composeCampaignMail, renderCampaignContent } from '../../../src/newsletter/campaigns/campaign-mail.js';
import { createSmtpMailer } from '../../../src/adapters/mail/smtp-mailer.js';
import { startSmtpServer } from '../../support/smtp-server.js';

const SITE = { title: 'Example Blog', baseUrl: 'https://blog.example.com' };
const POST: PublishedPost = {
  slug: 'trip',
  lang: 'en',
  title: 'A trip\r\nto the hills',
  url: 'https://blog.example.com/blog/trip',
  date: '2024-05-01T10:00:00+02:00',
  // markdown-it output, as the API detail gives it (the image beside the post already absolute).
  html: [
    '<p>Read <a href="next">the next one</a>, <a href="/about">about me</a>, <a href="https://other.example.org/a?b=1&amp;c=2">elsewhere</a>,',
    '<a href="mailto:ada@example.org">write</a> or go <a href="#top">up</a>.</p>',
    '<p><img src="https://blog.example.com/api/blog/media/trip/hill.jpg" alt="A hill at dusk"></p>',
    '<p><img src="../shared/map.png" alt="" srcset="../shared/map.png 1x, /maps/map@2x.png 2x"></p>',
    '<pre><code class="language-js">const near = 1 &lt; 2;',
    '</code></pre>',
    '<blockquote>',
    '<p>Quoted words</p>',
    '</blockquote>',
  ].join('\n'),
};
const FOOTER = {
  unsubscribeUrl: 'https://blog.example.com/newsletter/unsubscribe?token=abc.def&list=1',
  siteTitle: 'Example Blog',
  postUrl: POST.url,
};

describe('renderCampaignContent', () => {
  const content = renderCampaignContent(POST, SITE);
  const $ = load(content.html, null, false);

  it('takes the title, on one line, as the subject, and the post language', () => {
    assert.equal(content.subject, 'A trip to the hills');
    assert.equal(content.lang, 'en');
  });

  it('makes relative links and images absolute on the post page, root-relative ones on its origin', () => {
    const hrefs = $('a').map((_index, element) => $(element).attr('href')).get();
    assert.deepEqual(hrefs, [
      'https://blog.example.com', // the masthead
      'https://blog.example.com/blog/next',
      'https://blog.example.com/about',
      'https://other.example.org/a?b=1&c=2',
      'mailto:ada@example.org',
      'https://blog.example.com/blog/trip#top',
    ]);
    const images = $('img').map((_index, element) => $(element).attr('src')).get();
    assert.deepEqual(images, ['https://blog.example.com/api/blog/media/trip/hill.jpg', 'https://blog.example.com/shared/map.png']);
    assert.equal($('img').eq(1).attr('srcset'), 'https://blog.example.com/shared/map.png 1x, https://blog.example.com/maps/map@2x.png 2x');
    assert.ok(content.html.includes('href="https://other.example.org/a?b=1&amp;c=2"'), 'attributes stay escaped');
  });

  it('inlines the stylesheet: elements carry style attributes, no <style> block is left', () => {
    assert.doesNotMatch(content.html, /<style/i);
    assert.match($('img').first().attr('style') ?? '', /max-width: 100%/);
    assert.match($('pre').attr('style') ?? '', /overflow-x: auto/);
    assert.match($('blockquote').attr('style') ?? '', /border-left/);
    assert.match($('.postbox-campaign').attr('style') ?? '', /max-width: 600px/);
    assert.equal($('h1').text(), 'A trip to the hills');
    assert.doesNotMatch(content.html, /<html|<body/i, 'a fragment');
    assert.ok(content.html.includes('const near = 1 &lt; 2;'), 'code stays escaped');
  });

  it('styles a post about templates too: `{{ ... }}` is text, not a block juice sets aside', () => {
    const templated = renderCampaignContent({ ...POST, html: '<p>Write {{ name <a href="x">here</a></p>\n<p>and }} there {{{raw}}}</p>' }, SITE);
    const $templated = load(templated.html, null, false);
    assert.match($templated('a').last().attr('style') ?? '', /color/);
    assert.match($templated('p').last().attr('style') ?? '', /margin/);
    assert.equal($templated('p').last().text(), 'and }} there {{{raw}}}');
    assert.ok(templated.text.includes('Write {{ name'));
  });

  it('gives a text part that begins with the title, with links as text [url] and images as their alt text', () => {
    assert.ok(content.text.startsWith('A trip to the hills\n'), content.text);
    assert.match(content.text, /the next one\s+\[https:\/\/blog\.example\.com\/blog\/next\]/);
    assert.match(content.text, /about me\s+\[https:\/\/blog\.example\.com\/about\]/);
    assert.ok(content.text.includes('[https://other.example.org/a?b=1&c=2]'));
    assert.ok(content.text.includes('A hill at dusk'));
    assert.ok(!content.text.includes('map.png'), 'an image without alt text is left out');
    assert.ok(content.text.includes('const near = 1 < 2;'));
    assert.ok(content.text.includes('Quoted words'));
    assert.ok(content.text.split('\n').every((line) => line.length <= 78 || !line.includes(' ')), 'wrapped at 78');
  });
});

describe('composeCampaignMail', () => {
  const content = renderCampaignContent(POST, SITE);

  it('wraps the content into a document with its own footer, the unsubscribe link in both parts', () => {
    const mail = composeCampaignMail(content, FOOTER);
    assert.equal(mail.subject, 'A trip to the hills');
    assert.match(mail.html, /^<!doctype html>\n<html lang="en">/);
    assert.ok(mail.html.includes('<meta charset="utf-8">'));
    assert.ok(mail.html.includes('<meta name="viewport"'));
    assert.ok(mail.html.includes('<title>A trip to the hills</title>'));
    assert.ok(mail.html.includes(content.html));
    const $ = load(mail.html);
    const links = $('a').map((_index, element) => $(element).attr('href')).get();
    assert.ok(links.includes(FOOTER.unsubscribeUrl), 'unsubscribe link in the HTML');
    assert.ok(links.includes(FOOTER.postUrl), 'web link in the HTML');
    assert.ok(mail.text.startsWith(`${content.text}\n\n-- \n`), 'the footer after a signature line');
    assert.ok(mail.text.includes(`Unsubscribe: ${FOOTER.unsubscribeUrl}\n`));
    assert.ok(mail.text.includes(`Read it on the web: ${FOOTER.postUrl}\n`));
    assert.doesNotMatch(mail.html, /<style/i);
  });

  it('escapes a hostile site title and URLs in the footer', () => {
    const mail = composeCampaignMail(content, { ...FOOTER, siteTitle: '<script>alert(1)</script> & "Co"', unsubscribeUrl: 'https://x.example/u?a="><script>' });
    assert.doesNotMatch(mail.html, /<script/i);
    const masthead = renderCampaignContent(POST, { ...SITE, title: '<script>alert(1)</script>' }).html;
    assert.doesNotMatch(masthead, /<script/i, 'nor in the masthead');
    assert.ok(mail.html.includes('subscribed to &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;.'));
    const $ = load(mail.html);
    assert.ok($('a').map((_index, element) => $(element).attr('href')).get().includes('https://x.example/u?a="><script>'));
  });
});

describe('a campaign mail over SMTP', () => {
  it('arrives with subject, text and HTML parts, the footer and Precedence: bulk', async () => {
    const smtp = await startSmtpServer();
    const mailer = createSmtpMailer({ host: '127.0.0.1', port: smtp.port, secure: false });
    try {
      const mail = composeCampaignMail(renderCampaignContent({ ...POST, title: 'Über die Hügel' }, SITE), FOOTER);
      await mailer.send({
        from: 'Example Blog <blog@example.com>',
        to: 'ada@example.org',
        ...mail,
        autoSubmitted: 'auto-generated',
        precedence: 'bulk',
        list: { id: 'newsletter.blog.example.com', unsubscribeUrl: FOOTER.unsubscribeUrl },
      });
      const [received] = await smtp.waitForMessages(1);
      const parsed = received!.parsed;
      assert.equal(parsed.subject, 'Über die Hügel');
      assert.ok(parsed.text?.startsWith('Über die Hügel\n'), parsed.text);
      assert.ok(parsed.text?.includes(`Unsubscribe: ${FOOTER.unsubscribeUrl}`));
      assert.equal(typeof parsed.html, 'string');
      assert.equal(parsed.html, mail.html);
      assert.equal(parsed.headers.get('precedence'), 'bulk');
    } finally {
      await mailer.close();
      await smtp.close();
    }
  });
});
