// A list's mail layout (docs/newsletter.md "Layouts"): the file read when the configuration is loaded (a missing
// one is a problem at its key), split at `{{content}}`, its header and footer rendered from Markdown around the
// body, with the list's colours inline, in the HTML and in the plain text.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { load } from 'cheerio';
import { parseConfigText } from '../../src/config/load.js';
import { composeCampaignMail, renderMailContent } from '../../src/newsletter/campaigns/campaign-mail.js';
import { splitLayout } from '../../src/newsletter/mail-layout.js';
import { toToml } from '../support/config.js';
import { createTempDir } from '../support/temp-dir.js';

const LAYOUT = '# The Garden Letter\n\nNotes from [our garden](/about).\n\n{{ content }}\n\nWritten in Lyon. <b>raw</b>\n';

function configWith(lists: unknown[]) {
  return {
    data_dir: 'data',
    server: { public_url: 'https://forms.example.com' },
    mail: { from: 'news@example.com', to: 'owner@example.com' },
    forms: [{ path: '/newsletter', type: 'newsletter', lists: ['newsletter', 'weekly'] }],
    newsletter: { lists },
  };
}

describe('mail layouts', () => {
  it('splits at the {{content}} line; without it the whole file is the header', () => {
    assert.deepEqual(splitLayout('Top\n{{content}}\nBottom\n'), { header: 'Top\n', footer: '\nBottom\n' });
    assert.deepEqual(splitLayout('Only a header\n'), { header: 'Only a header\n', footer: '' });
  });

  it('are read with the configuration, for a form’s own list and a list without a form; a missing file is a problem at its key', async () => {
    const temp = await createTempDir('layouts');
    try {
      await writeFile(path.join(temp.dir, 'weekly.md'), LAYOUT);
      const result = parseConfigText(
        toToml(configWith([{ id: 'weekly', layout: 'weekly.md', colors: { link: '#aa3300' } }, { id: 'newsletter', colors: { background: '#fafaf5' } }])),
        {},
        temp.dir,
      );
      assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
      const weekly = result.config.newsletter.lists.find((list) => list.id === 'weekly')!;
      assert.equal(weekly.layout?.markdown, LAYOUT);
      assert.deepEqual(weekly.layout?.colors, { text: '#1f2328', link: '#aa3300', background: '#ffffff' });
      const own = result.config.newsletter.lists.find((list) => list.id === 'newsletter')!;
      assert.deepEqual(own.layout, { markdown: '{{content}}\n', colors: { text: '#1f2328', link: '#0b57d0', background: '#fafaf5' } });

      const missing = parseConfigText(toToml(configWith([{ id: 'weekly', layout: 'nowhere.md' }])), {}, temp.dir);
      assert.ok(!missing.ok);
      assert.equal(missing.problems[0]?.path, 'newsletter.lists[0].layout');
      assert.match(missing.problems[0]!.message, /cannot read .*nowhere\.md \(ENOENT\)/);
      const badColor = parseConfigText(toToml(configWith([{ id: 'weekly', colors: { text: 'red; display:none' } }])), {}, temp.dir);
      assert.ok(!badColor.ok);
      assert.equal(badColor.problems[0]?.path, 'newsletter.lists[0].colors.text');
    } finally {
      await temp.remove();
    }
  });

  it('puts the body between the header and footer, styled inline in the list’s colours, and in the text', () => {
    const content = renderMailContent({
      subject: 'Spring',
      lang: 'en',
      html: '<h1>Spring</h1>\n<p>Tulips.</p>',
      baseUrl: 'https://blog.example.com/blog/spring',
      site: { title: 'Garden', baseUrl: 'https://blog.example.com' },
      layout: { markdown: LAYOUT, colors: { text: '#222222', link: '#aa3300', background: '#fafaf5' } },
    });
    const mail = composeCampaignMail(content, { unsubscribeUrl: 'https://forms.example.com/newsletter/unsubscribe?token=T', preferencesUrl: 'https://forms.example.com/newsletter/preferences?token=P', siteTitle: 'Garden' });
    const $ = load(mail.html);
    assert.equal($('style').length, 0, 'no <style> block');
    const order = $('h1, p').toArray().map((element) => $(element).text().trim());
    assert.deepEqual(order.slice(0, 4), ['The Garden Letter', 'Notes from our garden.', 'Spring', 'Tulips.']);
    assert.ok(order.includes('Written in Lyon. <b>raw</b>'), 'raw HTML in a layout is written as text');
    assert.equal($('a').first().attr('href'), 'https://blog.example.com/about', 'relative links made absolute');
    assert.match($('a').first().attr('style') ?? '', /color: #aa3300/);
    assert.match($('.postbox-campaign').attr('style') ?? '', /color: #222222/);
    assert.match($('body').attr('style') ?? '', /background: #fafaf5/);
    assert.ok(mail.html.includes('https://forms.example.com/newsletter/unsubscribe?token=T'), 'the unsubscribe link in every mail');
    assert.ok(mail.html.includes('https://forms.example.com/newsletter/preferences?token=P'), 'and the preference page');
    assert.match(mail.text, /^The Garden Letter\n\nNotes from our garden \[https:\/\/blog\.example\.com\/about\]\.\n\nSpring\n\nTulips\.\n\nWritten in Lyon\. <b>raw<\/b>\n\n-- \n/);
    assert.match(mail.text, /Unsubscribe: https:\/\/forms\.example\.com\/newsletter\/unsubscribe\?token=T\nChoose your lists: https:\/\/forms\.example\.com\/newsletter\/preferences\?token=P\n$/);
  });
});
