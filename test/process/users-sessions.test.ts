// A running `postbox serve` and `postbox users` beside it on one data_dir (docs/admin.md "Users and roles"): an
// editor added by the command signs in to the running service, and `users reset-password` ends that editor's open
// session without a restart (how soon the service sees the command's change: test/adapters/files/account-files); the new password signs in, the old one no longer does.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hashPassword } from '../../src/kit/password-hash.js';
import { writeConfigFile } from '../support/config.js';
import { assertCliBuilt, CLI_PATH, REPO_ROOT, startPostboxServe, type ServeProcess } from '../support/postbox-process.js';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';

/** Runs `postbox <args>` with `stdin` piped in; its exit code. */
async function postbox(args: string[], stdin: string): Promise<number | null> {
  assertCliBuilt();
  const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd: REPO_ROOT, stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('close', resolve));
}

describe('postbox users beside a running serve', () => {
  let temp: Awaited<ReturnType<typeof createTempDir>>;
  let serve: ServeProcess;
  let configFile: string;
  before(async () => {
    temp = await createTempDir('users-sessions');
    await mkdir(path.join(temp.dir, 'posts'));
    configFile = await writeConfigFile(temp.dir, {
      data_dir: path.join(temp.dir, 'data'),
      site: { title: 'Site', base_url: 'http://127.0.0.1' },
      blog: { listen: '127.0.0.1:0', content_dir: path.join(temp.dir, 'posts') },
      admin: { users: [{ name: 'owner', password_hash: await hashPassword('the owner of the configuration', Buffer.alloc(16, 1), { N: 16384, r: 8, p: 1 }) }] },
    });
    assert.equal(await postbox(['users', 'add', 'ed', '--role', 'editor', '--config', configFile], 'the first password of ed\n'), 0);
    serve = await startPostboxServe(configFile, ['blog']);
  });
  after(async () => {
    await serve?.stop();
    await temp.remove();
  });

  const signIn = async (password: string) => {
    const response = await fetch(`${serve.addresses.blog}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'ed', password }),
    });
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('postbox_admin='));
    return { status: response.status, cookie: cookie?.split(';', 1)[0] };
  };
  const postsPage = async (cookie: string) =>
    (await fetch(`${serve.addresses.blog}/admin/posts`, { redirect: 'manual', headers: { cookie } })).status;

  it('ends the session of a user whose password the command reset', async () => {
    const first = await signIn('the first password of ed');
    assert.equal(first.status, 303);
    assert.ok(first.cookie);
    assert.equal(await postsPage(first.cookie), 200, 'an editor opens the posts');
    assert.equal(await postbox(['users', 'reset-password', 'ed', '--config', configFile], 'the second password of ed\n'), 0);
    await waitFor('the session to end', async () => ((await postsPage(first.cookie!)) === 303 ? true : undefined));
    assert.equal((await signIn('the first password of ed')).status, 403, 'the old password no longer signs in');
    const second = await signIn('the second password of ed');
    assert.equal(second.status, 303);
    assert.equal(await postsPage(second.cookie!), 200);
  });
});
