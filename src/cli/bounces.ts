// `postbox bounces classify FILE...` (docs/bounces.md "Bounces: how a failure is classified"): what the classifier
// makes of mails saved as files, one JSON line per file, so an owner can check a bounce by hand or feed a folder
// of them through a script. It reads only the files it is given: no configuration, no state, no server.
import { readFile } from 'node:fs/promises';
import { classifyBounce } from '../bounces/classify.js';

export const BOUNCES_USAGE = `  postbox bounces classify FILE...
                                  what each saved mail (.eml) means: one JSON line per file
                                  with its kind, failed recipient and status code
`;

export interface BouncesCommandIo {
  out(text: string): void;
  /** The bytes of one file as given on the command line. */
  readFile(path: string): Promise<Buffer>;
}

/** A `bounces classify` command line, read. */
export type BouncesCommand = { action: 'classify'; files: string[] };

/** `args` (after `bounces`) and `--format` as a command, or what is wrong with them; no file is read yet. */
export function parseBouncesCommand(args: readonly string[], options: { format: string | undefined }): BouncesCommand | { problem: string } {
  const [action, ...files] = args;
  if (action !== 'classify') return { problem: action === undefined ? 'bounces needs a command' : `unknown bounces command "${action}"` };
  if (options.format !== undefined) return { problem: 'bounces classify always prints JSON lines; it takes no --format' };
  if (files.length === 0) return { problem: 'bounces classify takes one or more mail files' };
  return { action, files };
}

/**
 * Classifies every file in order and prints one line for each: `{"file","kind","recipient","status"}` (null when
 * the mail names none), or `{"file","error"}` for a file that cannot be read. The exit code: 0, or 1 when any file
 * could not be read, after all of them were tried.
 */
export async function runBouncesCommand(command: BouncesCommand, io: BouncesCommandIo): Promise<number> {
  let failed = false;
  for (const file of command.files) {
    let raw: Buffer;
    try {
      raw = await io.readFile(file);
    } catch (error) {
      failed = true;
      io.out(`${JSON.stringify({ file, error: readProblem(error) })}\n`);
      continue;
    }
    const verdict = await classifyBounce(raw);
    io.out(`${JSON.stringify({ file, kind: verdict.kind, recipient: verdict.recipient ?? null, status: verdict.status ?? null })}\n`);
  }
  return failed ? 1 : 0;
}

/** The io of the real command: stdout and the file system. */
export function processBouncesIo(): BouncesCommandIo {
  return { out: (text) => void process.stdout.write(text), readFile: (path) => readFile(path) };
}

/** Why a file could not be read, in words (the path is already on the line). */
function readProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? (error instanceof Error ? error.message : String(error));
}
