// The bench's output: one line per figure with its target and verdict as it comes, and a summary at the end.

export type Verdict = 'PASS' | 'FAIL' | 'INFO' | 'SKIP';

export interface Figure {
  section: string;
  name: string;
  /** The measured figure, formatted. */
  value: string;
  /** The target, formatted ("-" for information-only lines). */
  target: string;
  verdict: Verdict;
  /** Absolute numbers and other context, printed on the following line. */
  detail?: string;
}

export interface Report {
  add(figure: Figure): void;
  /** Prints a heading for the next section. */
  section(title: string): void;
  note(text: string): void;
  figures(): Figure[];
  printSummary(): void;
  failed(): boolean;
}

/** A report that writes to `write` (stdout by default). */
export function createReport(write: (text: string) => void = (text) => process.stdout.write(text)): Report {
  const figures: Figure[] = [];
  const line = (figure: Figure) =>
    `${figure.verdict.padEnd(4)}  ${`${figure.section}: ${figure.name}`.padEnd(60)} ${figure.value.padEnd(30)} target ${figure.target}`;
  return {
    add(figure) {
      figures.push(figure);
      write(`${line(figure)}\n${figure.detail ? `      ${figure.detail}\n` : ''}`);
    },
    section(title) {
      write(`\n== ${title}\n`);
    },
    note(text) {
      write(`      note: ${text}\n`);
    },
    figures: () => [...figures],
    printSummary() {
      write('\n== Summary\n');
      for (const figure of figures) write(`${line(figure)}\n`);
      const failed = figures.filter((figure) => figure.verdict === 'FAIL').length;
      const passed = figures.filter((figure) => figure.verdict === 'PASS').length;
      write(`\n${passed} passed, ${failed} failed, ${figures.length - passed - failed} information or skipped\n`);
    },
    failed: () => figures.some((figure) => figure.verdict === 'FAIL'),
  };
}

/** "12,345" */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** "1.23 ms" with sensible precision. */
export function formatMs(value: number): string {
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value)} ms`;
}

export function formatBytes(value: number): string {
  return value >= 1024 * 1024 ? `${(value / 1024 / 1024).toFixed(1)} MB` : `${(value / 1024).toFixed(1)} KB`;
}
