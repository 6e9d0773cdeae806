// Deterministic Markdown blog corpora for the blog benches (layout and front matter of docs/blog.md
// "Where posts live" and "Front matter").
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPrng, type Prng } from './prng.js';

/** Words that the vocabulary can never produce (it has no x, z or q), each put into a known share of posts. */
export const SEARCH_TERMS: ReadonlyArray<{ word: string; share: number }> = [
  { word: 'xylograph', share: 0.05 },
  { word: 'zephyr', share: 0.005 },
  { word: 'quixotic', share: 0.01 },
  { word: 'onyx', share: 0.02 },
  { word: 'zircon', share: 0.03 },
  { word: 'syntax', share: 0.08 },
  { word: 'lynx', share: 0.12 },
  { word: 'zenith', share: 0.2 },
  { word: 'matrix', share: 0.3 },
  { word: 'paradox', share: 0.015 },
];

/** The word present in about 5 % of the posts (the issue's `q` URL). */
export const MARKER_WORD = 'xylograph';

export interface CorpusOptions {
  posts: number;
  seed: number;
  /** corpusShape() unless given. */
  shape?: CorpusShape;
}

/**
 * `narrow` (the default): 3,000 words, posts of about 4 KB. `wide` (BENCH_CORPUS=wide): 50,000 words in a longer
 * tail and posts of about 6 KB (600 MB of Markdown per 100,000 posts), which is closer to prose: its distinct
 * words, punctuation attached, are three to four times as many, and the `q` index's size follows them.
 */
export type CorpusShape = 'narrow' | 'wide';

/** The shape BENCH_CORPUS asks for. */
export function corpusShape(): CorpusShape {
  const shape = process.env.BENCH_CORPUS ?? 'narrow';
  if (shape !== 'narrow' && shape !== 'wide') throw new Error(`BENCH_CORPUS must be narrow or wide, not ${JSON.stringify(shape)}`);
  return shape;
}

const SHAPES: Record<CorpusShape, { vocabulary: number; tail: number; length: number }> = {
  narrow: { vocabulary: 3000, tail: 3, length: 1 },
  wide: { vocabulary: 50_000, tail: 4, length: 1.5 },
};

export interface CorpusInfo {
  dir: string;
  /** Published primary versions: the `total` of `/api/blog/posts`. */
  published: number;
  /** Published primary slugs in generation order (roughly newest first). */
  slugs: string[];
  /** Published primary posts containing each search term (in title or body). */
  termCounts: Record<string, number>;
  files: number;
  bytes: number;
  /** Relative path of each published primary post's file, by slug (for the edit bench). */
  fileOf: Record<string, string>;
}

const CONSONANTS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'br', 'st', 'tr', 'pl', 'ch', 'sh'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
const TAGS = Array.from({ length: 40 }, (_, index) => `topic-${String.fromCharCode(97 + (index % 26))}${Math.floor(index / 26) || ''}`);
const LANGUAGES = ['de', 'fr', 'es'];
const DAY_MS = 86_400_000;
const NEWEST_MS = Date.UTC(2025, 5, 30);

/** Writes `posts` posts (plus some translations and drafts) under `dir`; the same seed gives the same bytes. */
export function generateCorpus(dir: string, options: CorpusOptions): CorpusInfo {
  const prng = createPrng(options.seed);
  const shape = SHAPES[options.shape ?? corpusShape()];
  const vocabulary: Vocabulary = { words: createWords(prng, shape.vocabulary), tail: shape.tail, length: shape.length };
  const info: CorpusInfo = { dir, published: 0, slugs: [], termCounts: {}, files: 0, bytes: 0, fileOf: {} };
  for (const term of SEARCH_TERMS) info.termCounts[term.word] = 0;
  mkdirSync(dir, { recursive: true });

  for (let index = 0; index < options.posts; index += 1) {
    const titleWords = Array.from({ length: prng.int(3, 8) }, () => pickWord(prng, vocabulary));
    const slug = `${titleWords.slice(0, 3).join('-')}-${index}`;
    const terms = SEARCH_TERMS.filter((term) => prng.chance(term.share)).map((term) => term.word);
    const draft = prng.chance(0.02);
    const post: PostShape = {
      title: capitalize(titleWords.join(' ')),
      date: new Date(NEWEST_MS - Math.floor(index * 0.7) * DAY_MS - prng.int(0, 3) * 3_600_000),
      rfc3339: prng.chance(0.2),
      tags: pickTags(prng),
      draft,
      allLangs: prng.chance(0.01),
      author: prng.chance(0.3) ? capitalize(`${pickWord(prng, vocabulary)} ${pickWord(prng, vocabulary)}`) : undefined,
      fediverse: prng.chance(0.1) ? `@${pickWord(prng, vocabulary)}@example.social` : undefined,
      cover: prng.chance(0.15) ? (prng.chance(0.5) ? `/images/${slug}.jpg` : { src: `/images/${slug}.png`, alt: 'Cover' }) : undefined,
      excerpt: prng.chance(0.1) ? capitalize(`${sentence(prng, vocabulary)}`) : undefined,
      body: createBody(prng, vocabulary, terms),
    };
    const toml = prng.chance(0.6);
    const folder = prng.chance(0.15);
    const file = folder ? `${slug}/index.md` : `${slug}.md`;
    const written = writePost(dir, file, post, toml);
    info.files += 1;
    info.bytes += written;
    if (draft) continue;
    info.published += 1;
    info.slugs.push(slug);
    info.fileOf[slug] = file;
    for (const term of terms) info.termCounts[term] = (info.termCounts[term] ?? 0) + 1;
    if (prng.chance(0.1)) {
      const lang = prng.pick(LANGUAGES);
      const translation: PostShape = { ...post, title: `${post.title} (${lang})`, body: createBody(prng, vocabulary, []) };
      const translationFile = folder ? `${slug}/index.${lang}.md` : `${slug}.${lang}.md`;
      info.bytes += writePost(dir, translationFile, translation, !toml);
      info.files += 1;
    }
  }
  return info;
}

interface PostShape {
  title: string;
  date: Date;
  rfc3339: boolean;
  tags: string[];
  draft: boolean;
  allLangs: boolean;
  author: string | undefined;
  fediverse: string | undefined;
  cover: string | { src: string; alt: string } | undefined;
  excerpt: string | undefined;
  body: string;
}

function writePost(dir: string, file: string, post: PostShape, toml: boolean): number {
  const target = path.join(dir, file);
  mkdirSync(path.dirname(target), { recursive: true });
  const text = `${toml ? tomlFrontMatter(post) : yamlFrontMatter(post)}\n${post.body}`;
  writeFileSync(target, text);
  return Buffer.byteLength(text);
}

function formatDate(post: PostShape): string {
  return post.rfc3339 ? post.date.toISOString().replace('.000Z', 'Z') : post.date.toISOString().slice(0, 10);
}

function tomlFrontMatter(post: PostShape): string {
  const lines = ['+++', `title = ${JSON.stringify(post.title)}`, `date = ${formatDate(post)}`];
  lines.push(`tags = [${post.tags.map((tag) => JSON.stringify(tag)).join(', ')}]`);
  if (post.draft) lines.push('draft = true');
  if (post.allLangs) lines.push('all_langs = true');
  if (post.author) lines.push(`author = ${JSON.stringify(post.author)}`);
  if (post.fediverse) lines.push(`fediverse_creator = ${JSON.stringify(post.fediverse)}`);
  if (typeof post.cover === 'string') lines.push(`cover = ${JSON.stringify(post.cover)}`);
  if (typeof post.cover === 'object') lines.push(`cover = { src = ${JSON.stringify(post.cover.src)}, alt = ${JSON.stringify(post.cover.alt)} }`);
  if (post.excerpt) lines.push(`excerpt = ${JSON.stringify(post.excerpt)}`);
  lines.push('+++');
  return `${lines.join('\n')}\n`;
}

function yamlFrontMatter(post: PostShape): string {
  const lines = ['---', `title: ${JSON.stringify(post.title)}`, `date: ${formatDate(post)}`];
  lines.push(`tags: [${post.tags.map((tag) => JSON.stringify(tag)).join(', ')}]`);
  if (post.draft) lines.push('draft: true');
  if (post.allLangs) lines.push('all_langs: true');
  if (post.author) lines.push(`author: ${JSON.stringify(post.author)}`);
  if (post.fediverse) lines.push(`fediverse_creator: ${JSON.stringify(post.fediverse)}`);
  if (typeof post.cover === 'string') lines.push(`cover: ${JSON.stringify(post.cover)}`);
  if (typeof post.cover === 'object') lines.push(`cover:\n  src: ${JSON.stringify(post.cover.src)}\n  alt: ${JSON.stringify(post.cover.alt)}`);
  if (post.excerpt) lines.push(`excerpt: ${JSON.stringify(post.excerpt)}`);
  lines.push('---');
  return `${lines.join('\n')}\n`;
}

/** The words posts are written with, how steeply their use falls off, and how long a post is (1: about 4 KB). */
interface Vocabulary {
  words: string[];
  tail: number;
  length: number;
}

function createWords(prng: Prng, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const syllables = prng.int(1, 4);
    let word = '';
    for (let index = 0; index < syllables; index += 1) word += prng.pick(CONSONANTS) + prng.pick(VOWELS);
    if (prng.chance(0.4)) word += prng.pick(CONSONANTS);
    words.add(word);
  }
  return [...words];
}

/** Zipf-like: a few words are very common, most are rare (the more so, the larger `tail`). */
function pickWord(prng: Prng, vocabulary: Vocabulary): string {
  return vocabulary.words[Math.floor(vocabulary.words.length * prng.next() ** vocabulary.tail)] as string;
}

function pickTags(prng: Prng): string[] {
  const tags = new Set<string>();
  const count = prng.int(1, 4);
  while (tags.size < count) tags.add(TAGS[Math.floor(TAGS.length * prng.next() ** 2)] as string);
  return [...tags];
}

function sentence(prng: Prng, vocabulary: Vocabulary, extra?: string): string {
  const words = Array.from({ length: prng.int(6, 18) }, () => pickWord(prng, vocabulary));
  if (extra) words.splice(prng.int(0, words.length), 0, extra);
  if (prng.chance(0.1)) words[0] = `**${words[0]}**`;
  if (prng.chance(0.08)) words[words.length - 1] = `[${words[words.length - 1]}](https://example.org/${words[1]})`;
  return `${capitalize(words.join(' '))}.`;
}

function createBody(prng: Prng, vocabulary: Vocabulary, terms: string[]): string {
  const paragraphs = Math.round(prng.int(3, 10) * vocabulary.length);
  const termAt = new Map<number, string[]>();
  for (const term of terms) {
    const at = prng.int(0, paragraphs - 1);
    termAt.set(at, [...(termAt.get(at) ?? []), prng.chance(0.2) ? capitalize(term) : term]);
  }
  const blocks: string[] = [];
  for (let index = 0; index < paragraphs; index += 1) {
    if (index > 0 && prng.chance(0.15)) blocks.push(`## ${capitalize(sentence(prng, vocabulary).slice(0, -1))}`);
    const inserted = termAt.get(index) ?? [];
    const sentences = Array.from({ length: Math.max(prng.int(3, 7), inserted.length) }, (_, at) => sentence(prng, vocabulary, inserted[at]));
    blocks.push(sentences.join(' '));
    if (index === 0 && prng.chance(0.3)) blocks.push('<!--more-->');
    if (prng.chance(0.08)) blocks.push(Array.from({ length: prng.int(2, 5) }, () => `- ${sentence(prng, vocabulary)}`).join('\n'));
    if (prng.chance(0.06)) blocks.push(`\`\`\`js\nconst ${pickWord(prng, vocabulary)} = ${prng.int(1, 999)};\n\`\`\``);
  }
  return `${blocks.join('\n\n')}\n`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
