// Summarizes a V8 .cpuprofile (from `npm run bench -- --cpu-prof DIR`): self time by function and by package
// or source folder, to see what limits a path. Usage: node --import tsx bench/profile-summary.ts FILE [TOP].
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topText = '25'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-summary.ts FILE.cpuprofile [TOP]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const top = Number(topText);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<number, number>();
profile.samples.forEach((id, index) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);

const byFunction = new Map<string, number>();
const byArea = new Map<string, number>();
for (const [id, micros] of selfMicros) {
  const frame = (byId.get(id) as ProfileNode).callFrame;
  const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  byArea.set(areaOf(frame.url, frame.functionName), (byArea.get(areaOf(frame.url, frame.functionName)) ?? 0) + micros);
}

const inclusive = new Map<string, number>();
function visit(id: number, onStack: Set<string>): number {
  const node = byId.get(id) as ProfileNode;
  const name = `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
  const nested = onStack.has(name);
  if (!nested) onStack.add(name);
  let sum = selfMicros.get(id) ?? 0;
  for (const child of node.children ?? []) sum += visit(child, onStack);
  if (!nested) {
    onStack.delete(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + sum);
  }
  return sum;
}
visit((profile.nodes[0] as ProfileNode).id, new Set());

print('self time by area', byArea);
print('self time by function', byFunction);
print('total time (self and callees) by function', inclusive);

function print(title: string, table: Map<string, number>): void {
  process.stdout.write(`\n${title} (total ${(total / 1000).toFixed(0)} ms)\n`);
  for (const [name, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((100 * micros) / total).toFixed(1).padStart(5)} %  ${name}\n`);
  }
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  return url.replace(/^file:\/\//, '');
}

/** node_modules package, postbox source folder, node internals, or V8's own buckets (GC, idle, program). */
function areaOf(url: string, functionName: string): string {
  if (!url) return `(${functionName.replace(/[()]/g, '') || 'native'})`;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1] as string;
  const dist = /\/dist\/(.+)\/[^/]+$/.exec(url) ?? /\/dist\/([^/]+)$/.exec(url);
  if (dist) return `postbox ${dist[1]}`;
  if (url.startsWith('node:')) return url.split('/')[0] as string;
  return url;
}
