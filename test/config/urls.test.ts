import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { z } from 'zod';
import { parseConfigText } from '../../src/config/load.js';
import { appendableUrl, baseUrl, httpUrl, origin } from '../../src/config/urls.js';

const THANKS_ENCODED = 'https://example.com/%D1%81%D0%BF%D0%B0%D1%81%D0%B8%D0%B1%D0%BE';

/** The loaded value, or the problem message. */
function load(schema: z.ZodType<string, string>, value: string): string {
  const result = schema.safeParse(value);
  return result.success ? result.data : `error: ${result.error.issues[0]?.message}`;
}

describe('httpUrl (redirect_url): the WHATWG serialisation', () => {
  const cases: Array<[string, string]> = [
    ['https://example.com/thanks', 'https://example.com/thanks'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/спасибо', THANKS_ENCODED],
    ['https://bücher.example/danke?von=формы#oben', 'https://xn--bcher-kva.example/danke?von=%D1%84%D0%BE%D1%80%D0%BC%D1%8B#oben'],
    ['HTTPS://Example.COM/Thanks', 'https://example.com/Thanks'],
    ['http://example.com:80/a b', 'http://example.com/a%20b'],
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['/thanks', 'error: must be an absolute http(s) URL'],
    ['ftp://example.com/', 'error: must be an absolute http(s) URL'],
    ['javascript:alert(1)', 'error: must be an absolute http(s) URL'],
    ['https://exa mple.com/', 'error: must be an absolute http(s) URL'],
    ['https://example.com:99999/', 'error: must be an absolute http(s) URL'],
  ];
  for (const [value, expected] of cases) {
    it(`${JSON.stringify(value)} -> ${expected}`, () => {
      assert.equal(load(httpUrl, value), expected);
      if (!expected.startsWith('error')) assert.match(expected, /^[\x21-\x7e]+$/, 'fit for a Location header');
    });
  }
});

describe('baseUrl (public_url, base_url) and appendableUrl (telegram.api_url)', () => {
  const cases: Array<[string, string, string]> = [
    ['https://forms.example.com', 'https://forms.example.com', 'https://forms.example.com/'],
    ['https://forms.example.com/', 'https://forms.example.com', 'https://forms.example.com/'],
    ['https://example.com/forms//', 'https://example.com/forms', 'https://example.com/forms//'],
    ['https://bücher.example/формы/', 'https://xn--bcher-kva.example/%D1%84%D0%BE%D1%80%D0%BC%D1%8B', 'https://xn--bcher-kva.example/%D1%84%D0%BE%D1%80%D0%BC%D1%8B/'],
    ['https://example.com/?a=1', 'error: must not have a query or a fragment (paths are appended to it)', ''],
    ['https://example.com/?', 'error: must not have a query or a fragment (paths are appended to it)', ''],
    ['https://example.com/#top', 'error: must not have a query or a fragment (paths are appended to it)', ''],
    ['https://user:secret@example.com', 'error: must not contain a user name or password', ''],
    ['https://user@example.com', 'error: must not contain a user name or password', ''],
    ['example.com', 'error: must be an absolute http(s) URL', ''],
  ];
  for (const [value, base, appendable] of cases) {
    it(`${JSON.stringify(value)} -> ${base}`, () => {
      assert.equal(load(baseUrl, value), base);
      assert.equal(load(appendableUrl, value), appendable || base);
    });
  }
});

describe('origin (allowed_origins): the ASCII serialisation browsers send', () => {
  const refused = 'error: must be an exact origin such as "https://example.com" (no path, no trailing slash; "*" is not supported)';
  const cases: Array<[string, string]> = [
    ['https://example.com', 'https://example.com'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
    ['HTTPS://Example.COM', 'https://example.com'],
    ['https://example.com:443', 'https://example.com'],
    ['https://[2001:DB8::1]:8443', 'https://[2001:db8::1]:8443'],
    ['*', refused],
    ['null', refused],
    ['https://example.com/', refused],
    ['https://example.com/path', refused],
    ['https://example.com?a=1', refused],
    ['https://example.com#a', refused],
    ['https://example.com\\', refused],
    ['https://user@example.com', refused],
    [' https://example.com', refused],
    ['https://exa\tmple.com', refused],
    ['ftp://example.com', refused],
    ['chrome-extension://abcdef', refused],
    ['https://', refused],
    ['https://example.com:99999', refused],
  ];
  for (const [value, expected] of cases) {
    it(`${JSON.stringify(value)} -> ${expected}`, () => {
      assert.equal(load(origin, value), expected);
    });
  }
});

describe('the loaded configuration carries the serialised URLs', () => {
  it('redirect_url, allowed_origins, public_url, base_url and api_url', () => {
    const text = `
[server]
public_url = "https://формы.example/"
[mail]
from = "f@example.com"
to = "o@example.com"
[[forms]]
path = "/contact"
type = "contact"
allowed_origins = ["https://bücher.example", "HTTPS://Example.COM"]
redirect_url = "https://example.com/спасибо"
[forms.telegram]
bot_token = "1:abc"
chat_id = 1
api_url = "http://Localhost:8081"
[site]
title = "T"
base_url = "https://bücher.example/blog/"
[blog]
`;
    const result = parseConfigText(text, {}, '/srv');
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    const { config } = result;
    const form = config.forms[0]!;
    assert.equal(form.redirect_url, THANKS_ENCODED);
    assert.deepEqual(form.allowed_origins, ['https://xn--bcher-kva.example', 'https://example.com']);
    assert.equal(form.type === 'contact' ? form.telegram?.api_url : undefined, 'http://localhost:8081/');
    assert.equal(config.server.public_url, 'https://xn--l1adgo2b.example');
    assert.equal(config.site?.base_url, 'https://xn--bcher-kva.example/blog');
  });

  it('the default api_url is the Bot API', () => {
    const result = parseConfigText('[mail]\nfrom = "f@example.com"\nto = "o@example.com"\n[[forms]]\npath = "/c"\ntype = "contact"\n[forms.telegram]\nbot_token = "1:abc"\nchat_id = 1\n', {}, '/');
    assert.ok(result.ok);
    const form = result.config.forms[0];
    assert.equal(form?.type === 'contact' ? form.telegram?.api_url : undefined, 'https://api.telegram.org/');
  });

  it('a public_url with a query is refused with its key path', () => {
    const result = parseConfigText('[server]\npublic_url = "https://forms.example.com/?x=1"\n[mail]\nfrom = "f@example.com"\nto = "o@example.com"\n[[forms]]\npath = "/n"\ntype = "newsletter"\n', {}, '/');
    assert.equal(result.ok, false);
    assert.deepEqual(!result.ok && result.problems.map((problem) => problem.path), ['server.public_url']);
  });
});
