// `postbox hash-password` (docs/admin.md "Users"): reads a password without echo from the terminal, or the first
// line of stdin when it is not a terminal, and prints the password_hash for [admin] users.
import { randomBytes } from 'node:crypto';
import { hashPassword, MIN_PASSWORD_LENGTH, SALT_BYTES } from '../kit/password-hash.js';

export interface HashPasswordIo {
  input: NodeJS.ReadStream;
  out(text: string): void;
  /** Prompts and problems; stdout carries only the hash, so that it can be captured. */
  error(text: string): void;
}

/** Runs the command; the exit code. */
export async function runHashPassword(io: HashPasswordIo): Promise<number> {
  const password = await readNewPassword(io);
  if (typeof password !== 'string') {
    io.error(`postbox: ${password.problem}\n`);
    return 1;
  }
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    io.error(`postbox: a password needs at least ${MIN_PASSWORD_LENGTH} characters\n`);
    return 1;
  }
  io.out(`${await hashPassword(password, randomBytes(SALT_BYTES))}\n`);
  return 0;
}

/**
 * A new password: typed twice without echo when `io.input` is a terminal (the prompts go to `io.error`), else the
 * first line of it. A problem when the two differ or none is given; its length is the caller's to check.
 */
export async function readNewPassword(io: Pick<HashPasswordIo, 'input' | 'error'>): Promise<string | { problem: string }> {
  let password: string | undefined;
  if (io.input.isTTY) {
    password = await readHidden(io, 'Password: ');
    const again = password === undefined ? undefined : await readHidden(io, 'Again: ');
    if (password !== undefined && again !== password) return { problem: 'the two passwords differ' };
  } else {
    password = await readFirstLine(io.input);
  }
  return password === undefined ? { problem: 'no password given' } : password;
}

/** The first line of a piped stdin, without its line ending; undefined when there is none. */
async function readFirstLine(input: NodeJS.ReadStream): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) {
    chunks.push(chunk as Buffer);
    if ((chunk as Buffer).includes(10)) break;
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  return text.split('\n', 1)[0]!.replace(/\r$/, '');
}

/** Reads one line from the terminal in raw mode, echoing nothing; Ctrl-C or Ctrl-D gives undefined. */
function readHidden(io: Pick<HashPasswordIo, 'input' | 'error'>, prompt: string): Promise<string | undefined> {
  const { input } = io;
  io.error(prompt);
  return new Promise((resolve) => {
    let typed = '';
    const finish = (value: string | undefined) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      io.error('\n');
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const character of chunk.toString('utf8')) {
        if (character === '\r' || character === '\n') return finish(typed);
        if (character === '\u0003' || character === '\u0004') return finish(undefined);
        if (character === '\u007f' || character === '\b') typed = [...typed].slice(0, -1).join('');
        else if (character >= ' ') typed += character;
      }
    };
    input.setRawMode(true);
    input.resume();
    input.on('data', onData);
  });
}
