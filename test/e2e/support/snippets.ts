// The snippets of docs/embedding.md, read as the e2e tests serve them: the docs are the test's source.
import { readFile } from 'node:fs/promises';
import MarkdownIt from 'markdown-it';
import { REPO_ROOT } from '../../support/postbox-process.js';

/** The example addresses the snippets use (docs/embedding.md, first table). */
export const PLACEHOLDERS = {
  site: 'https://www.example.com',
  forms: 'https://forms.example.com',
  blog: 'https://blog.example.com',
} as const;

/** The snippets the tests use; a missing one fails the run instead of silently testing less. */
export const SNIPPET_NAMES = [
  'contact-form.html',
  'contact-form-multipart.html',
  'contact-fetch.html',
  'contact-pow.html',
  'contact-pow-fetch.html',
  'newsletter-signup.html',
  'latest-posts.html',
  'config.toml',
] as const;
export type SnippetName = (typeof SNIPPET_NAMES)[number];

const MARKER = /^<!--\s*snippet:\s*([\w./[\]-]+)\s*-->\s*$/;

/** Every fenced block preceded by `<!-- snippet: NAME -->`, by NAME (a file name, or a path under examples/), exactly as written in the doc. */
export function extractSnippets(markdown: string): Map<string, string> {
  const tokens = new MarkdownIt({ html: true }).parse(markdown, {});
  const snippets = new Map<string, string>();
  tokens.forEach((token, index) => {
    const name = token.type === 'html_block' ? MARKER.exec(token.content.trim())?.[1] : undefined;
    if (name === undefined) return;
    const next = tokens[index + 1];
    if (next?.type !== 'fence') throw new Error(`docs/embedding.md: snippet marker ${name} is not followed by a code block`);
    if (snippets.has(name)) throw new Error(`docs/embedding.md: snippet ${name} appears twice`);
    snippets.set(name, next.content);
  });
  return snippets;
}

/** Reads docs/embedding.md and returns the snippets the tests need. */
export async function loadSnippets(): Promise<Record<SnippetName, string>> {
  const snippets = extractSnippets(await readFile(`${REPO_ROOT}docs/embedding.md`, 'utf8'));
  const missing = SNIPPET_NAMES.filter((name) => !snippets.has(name));
  if (missing.length > 0) throw new Error(`docs/embedding.md lacks the snippets ${missing.join(', ')}`);
  return Object.fromEntries(SNIPPET_NAMES.map((name) => [name, snippets.get(name) as string])) as Record<SnippetName, string>;
}

/** Replaces the example addresses by the test's real ones. */
export function fillPlaceholders(text: string, addresses: { site: string; forms: string; blog: string }): string {
  return text
    .replaceAll(PLACEHOLDERS.site, addresses.site)
    .replaceAll(PLACEHOLDERS.forms, addresses.forms)
    .replaceAll(PLACEHOLDERS.blog, addresses.blog);
}
