// The layout docs/architecture.md describes, checked on the source itself: few files at the root of src/, imports
// between folders that run one way (no domain folder imports an adapter or the composition, no circle), the
// backend chosen in one place, and comments that cite only what the repository holds.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Every .ts and .tsx file under src/, relative to it. */
function sourceFiles(directory = SRC): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [path.relative(SRC, full)] : [];
  });
}

/** The folder of src/ a file belongs to: its first path segment, or the file itself at the root. */
const folderOf = (file: string) => file.split(path.sep)[0]!;

/** The src/ files `file` imports (relative specifiers only), relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => path.relative(SRC, path.resolve(path.dirname(path.join(SRC, file)), specifier)));
}

const files = sourceFiles();

/** The source file an import's resolved path names (`x.js` is `x.ts` or `x.tsx`). */
function importTargets(resolved: string): string[] {
  const base = resolved.replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`].filter((candidate) => files.includes(candidate));
}
const edges = files.flatMap((file) => importsOf(file).map((target) => ({ from: file, to: target })));

/** The folders that hold what Postbox does; they know nothing of how it is wired or which adapters carry it out. */
const DOMAIN = ['forms', 'newsletter', 'bounces', 'queue', 'blog', 'comments', 'activitypub', 'admin', 'http', 'config', 'kit', 'ports.ts'];

describe('the layout of src/', () => {
  it('keeps at most three files at its root', () => {
    const root = files.filter((file) => !file.includes(path.sep));
    assert.ok(root.length <= 3, `at the root: ${root.join(', ')}`);
  });

  it('has no domain folder importing an adapter, the composition or a command', () => {
    const wrong = edges.filter(({ from, to }) => DOMAIN.includes(folderOf(from)) && ['adapters', 'app', 'cli', 'main.ts'].includes(folderOf(to)));
    assert.deepEqual(wrong, []);
  });

  it('has kit/ import nothing of Postbox but kit/', () => {
    const wrong = edges.filter(({ from, to }) => folderOf(from) === 'kit' && folderOf(to) !== 'kit');
    assert.deepEqual(wrong, []);
  });

  it('has no circle between folders', () => {
    const next = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      if (folderOf(from) === folderOf(to)) continue;
      if (!next.has(folderOf(from))) next.set(folderOf(from), new Set());
      next.get(folderOf(from))!.add(folderOf(to));
    }
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (folder: string, trail: string[]) => {
      if (state.get(folder) === 'done') return;
      if (state.get(folder) === 'open') {
        circles.push([...trail.slice(trail.indexOf(folder)), folder].join(' -> '));
        return;
      }
      state.set(folder, 'open');
      for (const target of next.get(folder) ?? []) visit(target, [...trail, folder]);
      state.set(folder, 'done');
    };
    for (const folder of next.keys()) visit(folder, []);
    assert.deepEqual(circles, []);
  });

  it('has no circle between files, type imports included', () => {
    const next = new Map<string, string[]>();
    for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), ...importTargets(to)]);
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const target of next.get(file) ?? []) visit(target, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    assert.deepEqual(circles, []);
  });

  it('chooses between the files and PostgreSQL in one place outside config/', () => {
    const choosing = files.filter((file) => folderOf(file) !== 'config' && /state\.backend|postgresUrlOf\(/.test(readFileSync(path.join(SRC, file), 'utf8')));
    // The one switch, and the two commands that only describe or migrate PostgreSQL.
    assert.deepEqual(choosing.sort(), ['adapters/postgres/backend.ts', 'app/open-backend.ts', 'cli/check-summary.ts', 'cli/migrate.ts'].map((file) => file.split('/').join(path.sep)));
    const opening = files.filter((file) => /createPostgresState\(/.test(readFileSync(path.join(SRC, file), 'utf8')) && !file.endsWith(path.join('postgres', 'state.ts')));
    assert.deepEqual(opening.sort(), ['adapters/postgres/backend.ts', 'cli/migrate.ts'].map((file) => file.split('/').join(path.sep)));
  });

  it('cites no document outside the repository in a comment', () => {
    const citing = files.filter((file) => /contract section|STYLE\.md|seed document/i.test(readFileSync(path.join(SRC, file), 'utf8')));
    assert.deepEqual(citing, []);
  });

  it('cites in comments only docs pages and sections that exist', () => {
    const ROOT = fileURLToPath(new URL('../', import.meta.url));
    /** A section as a comment writes it: no backticks, one space between words, any case. */
    const plain = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
    const anchors = new Map<string, string[]>();
    /** What a doc can be cited by: its headings, its bold lead-ins and its `keys`. */
    const namesIn = (doc: string) => {
      if (!anchors.has(doc)) {
        const text = readFileSync(path.join(ROOT, doc), 'utf8');
        const headings = [...text.matchAll(/^#+\s+(.+)$/gm)].map((match) => match[1]!);
        const bold = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1]!.replace(/[.:]$/, ''));
        const keys = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
        anchors.set(doc, [...headings, ...bold, ...keys].map(plain));
      }
      return anchors.get(doc)!;
    };
    const docs = new Set(readdirSync(path.join(ROOT, 'docs')).map((name) => `docs/${name}`));
    const wrong: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(SRC, file), 'utf8');
      for (const match of text.matchAll(/(docs\/[a-z0-9-]+\.md)(?:\s*(?:\/\/|\*)?\s*"([^"]+)")?/g)) {
        const [, doc, section] = match;
        if (!docs.has(doc!)) wrong.push(`${file}: ${doc}`);
        else if (section !== undefined) {
          const cited = plain(section.replace(/\s*\n\s*(?:\/\/|\*)?\s*/g, ' '));
          if (!namesIn(doc!).some((name) => name.includes(cited))) wrong.push(`${file}: ${doc} "${section}"`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });
});
