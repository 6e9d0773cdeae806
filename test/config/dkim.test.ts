// [mail.dkim]: the key inline or from a file, and every way it can be unusable, each named by its key path.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseConfigText, type LoadResult } from '../../src/config/load.js';
import { toToml, type TomlTable } from '../support/config.js';
import { dkimTestKey } from '../support/dkim-keys.js';
import { withTempDir } from '../support/temp-dir.js';

const key = dkimTestKey();

function loadWithDkim(dkim: TomlTable, baseDir = '/srv/site', env: NodeJS.ProcessEnv = {}): LoadResult {
  const table = {
    mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com', dkim },
    forms: [{ path: '/contact', type: 'contact' }],
  };
  return parseConfigText(toToml(table), env, baseDir);
}

function problemsOf(result: LoadResult): Array<{ path: string; message: string }> {
  assert.equal(result.ok, false, 'expected the config to be rejected');
  return result.ok ? [] : result.problems;
}

describe('[mail.dkim]', () => {
  it('loads an inline key, usually from an environment variable, with the domain in its ASCII spelling', () => {
    const result = loadWithDkim({ domain: 'Bücher.Example', selector: 'postbox', private_key: '${DKIM_PRIVATE_KEY}' }, '/', { DKIM_PRIVATE_KEY: key.privateKeyPem });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    assert.deepEqual(result.config.mail?.dkim, { domain: 'xn--bcher-kva.example', selector: 'postbox', private_key: key.privateKeyPem });
  });

  it('takes a PEM whose line breaks an environment file wrote as \\n', () => {
    const oneLine = key.privateKeyPem.trimEnd().replace(/\n/g, '\\n');
    const result = loadWithDkim({ domain: 'example.com', selector: 's1', private_key: '${DKIM_PRIVATE_KEY}' }, '/', { DKIM_PRIVATE_KEY: oneLine });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    assert.equal(result.config.mail?.dkim?.private_key, key.privateKeyPem.trimEnd());
  });

  it('reads private_key_file relative to the config file folder, like data_dir', async () => {
    await withTempDir('dkim', async (dir) => {
      await mkdir(path.join(dir, 'keys'));
      await writeFile(path.join(dir, 'keys', 'dkim.pem'), key.privateKeyPem, { mode: 0o600 });
      const result = loadWithDkim({ domain: 'example.com', selector: '2024-05.mail', private_key_file: 'keys/dkim.pem' }, dir);
      assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
      assert.deepEqual(result.config.mail?.dkim, { domain: 'example.com', selector: '2024-05.mail', private_key: key.privateKeyPem });
      assert.equal('private_key_file' in (result.config.mail?.dkim ?? {}), false, 'the code gets the key, not where it came from');
    });
  });

  it('a file that cannot be read, or holds no usable key, is a problem of mail.dkim.private_key_file', async () => {
    await withTempDir('dkim', async (dir) => {
      const missing = problemsOf(loadWithDkim({ domain: 'example.com', selector: 's', private_key_file: 'nowhere.pem' }, dir));
      assert.deepEqual(missing, [{ path: 'mail.dkim.private_key_file', message: `cannot read ${path.join(dir, 'nowhere.pem')} (ENOENT)` }]);
      await writeFile(path.join(dir, 'public.pem'), key.txtRecord);
      const notAKey = problemsOf(loadWithDkim({ domain: 'example.com', selector: 's', private_key_file: 'public.pem' }, dir));
      assert.equal(notAKey[0]?.path, 'mail.dkim.private_key_file');
      assert.match(notAKey[0]?.message ?? '', /public\.pem must be an unencrypted RSA private key in PEM form/);
    });
  });

  it('a key that does not parse, is not RSA, is encrypted or too short is a problem of mail.dkim.private_key', () => {
    const ed25519 = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const encrypted = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' }).toString();
    const short = generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const cases: Array<[string, string, RegExp]> = [
      ['garbage', 'not a key at all', /must be an unencrypted RSA private key in PEM form/],
      ['empty', '', /must be an unencrypted RSA private key/],
      ['a PEM cut short', key.privateKeyPem.slice(0, 300), /must be an unencrypted RSA private key/],
      ['ed25519', ed25519, /must be an RSA key \(mail is signed rsa-sha256\), not ed25519/],
      ['encrypted', encrypted, /must be an unencrypted RSA private key/],
      ['512 bits', short, /must have at least 1024 bits \(RFC 8301; 2048 is recommended\), this one has 512/],
    ];
    for (const [what, pem, message] of cases) {
      const problems = problemsOf(loadWithDkim({ domain: 'example.com', selector: 's', private_key: pem }));
      assert.equal(problems.length, 1, what);
      assert.equal(problems[0]?.path, 'mail.dkim.private_key', what);
      assert.match(problems[0]?.message ?? '', message, what);
      if (pem.length > 80) assert.ok(!problems[0]?.message.includes(pem.slice(40, 80)), `${what}: the key is never quoted`);
    }
  });

  it('wants exactly one of private_key and private_key_file', () => {
    assert.deepEqual(problemsOf(loadWithDkim({ domain: 'example.com', selector: 's' })), [
      { path: 'mail.dkim.private_key', message: 'is required, or private_key_file (the path of a PEM file)' },
    ]);
    assert.deepEqual(problemsOf(loadWithDkim({ domain: 'example.com', selector: 's', private_key: key.privateKeyPem, private_key_file: 'k.pem' })), [
      { path: 'mail.dkim.private_key_file', message: 'cannot be set together with private_key: use one of them' },
    ]);
  });

  it('checks the domain, the selector, unknown keys and unset variables, each by its key path', () => {
    const paths = (dkim: TomlTable, env: NodeJS.ProcessEnv = {}) => problemsOf(loadWithDkim(dkim, '/', env)).map((problem) => problem.path).sort();
    const good = { domain: 'example.com', selector: 's', private_key: key.privateKeyPem };
    for (const domain of ['', 'localhost', '192.0.2.1', 'exa mple.com', 'example..com', '-example.com']) {
      assert.deepEqual(paths({ ...good, domain }), ['mail.dkim.domain'], domain);
    }
    for (const selector of ['', 'a_b', 'a b', 'a.', '.a', 'a/b', 's;x=1']) {
      assert.deepEqual(paths({ ...good, selector }), ['mail.dkim.selector'], selector);
    }
    assert.deepEqual(paths({ ...good, selektor: 's' }), ['mail.dkim.selektor']);
    assert.deepEqual(paths({ ...good, private_key: '${DKIM_PRIVATE_KEY}' }), ['mail.dkim.private_key']);
  });
});
