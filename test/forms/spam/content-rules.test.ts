// The content rules of [forms.spam] (docs/spam.md "The keys"): each rule catches what it names and lets ordinary
// messages through, so a wrong threshold or a substring match shows here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countLinks, createBlockedWords, createContentRules, isDisposableDomain } from '../../../src/forms/spam/content-rules.js';
import { spamSchema } from '../../../src/config/spam.js';

const rulesOf = (table: Record<string, unknown>) => createContentRules(spamSchema.parse(table));
const ordinary = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'I would like to ask about a website for my small bakery in town.' };

test('links: more than max_links in name and message together is spam; exactly max_links is not', () => {
  const rules = rulesOf({ max_links: 1 });
  assert.deepEqual(rules({ ...ordinary, message: 'See https://a.example for details.' }), []);
  assert.deepEqual(rules({ ...ordinary, name: 'www.cheap.example', message: 'See https://a.example for details.' }), ['links']);
  assert.deepEqual(rulesOf({ max_links: 0 })({ ...ordinary, message: 'Visit http://x.example now' }), ['links']);
  assert.equal(countLinks('http://a.example https://b.example ftp://c.example www.d.example'), 4);
  assert.equal(countLinks('an email like ada@www.example is no link, nor is "www" alone'), 0);
});

test('disposable: listed domains, their subdomains and wildcard entries; ordinary domains pass', () => {
  assert.equal(isDisposableDomain('mailinator.com'), true);
  assert.equal(isDisposableDomain('inbox.mailinator.com'), true, 'a subdomain of a listed domain');
  assert.equal(isDisposableDomain('gmail.com'), false);
  assert.equal(isDisposableDomain('example.org'), false);
  const rules = rulesOf({ block_disposable: true });
  assert.deepEqual(rules({ ...ordinary, email: 'x@mailinator.com' }), ['disposable']);
  assert.deepEqual(rules({ ...ordinary, email: 'x@MAILINATOR.COM' }), ['disposable'], 'the domain is compared lower-cased');
  assert.deepEqual(rules(ordinary), []);
});

test('language: a message of 40 characters or more in another language is spam; shorter ones are never judged', () => {
  const rules = rulesOf({ languages: ['en'] });
  assert.deepEqual(rules(ordinary), []);
  assert.deepEqual(rules({ ...ordinary, message: 'Здравствуйте! Мы предлагаем продвижение вашего сайта в поисковых системах недорого.' }), ['language']);
  assert.deepEqual(rules({ ...ordinary, message: 'Hola, ¿qué tal?' }), [], 'too short to judge');
  assert.deepEqual(rulesOf({ languages: ['en', 'de'] })({ ...ordinary, message: 'Guten Tag, ich hätte gerne ein Angebot für eine neue Webseite für meine Bäckerei.' }), []);
});

test('blocked words: whole words and phrases, case and accents ignored, never inside a longer word', () => {
  const matches = createBlockedWords(['casino', 'crypto airdrop', 'ass']);
  assert.ok(matches);
  assert.equal(matches('Try our CASINO today'), true);
  assert.equal(matches('free Crypto   Airdrop inside'), true, 'a phrase across any white space');
  assert.equal(matches('cásino'), true, 'accents folded');
  assert.equal(matches('casinos'), false, 'part of a longer word');
  assert.equal(matches('a class of its own'), false);
  assert.equal(createBlockedWords([]), undefined);
  assert.deepEqual(rulesOf({ blocked_words: ['casino'] })({ ...ordinary, email: 'casino@example.org' }), ['words'], 'the address counts too');
});

test('without rules nothing is spam, whatever the message holds', () => {
  assert.deepEqual(rulesOf({})({ ...ordinary, message: 'https://a.example https://b.example casino' }), []);
});
