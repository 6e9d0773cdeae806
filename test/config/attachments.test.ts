// [forms.attachments] and [storage] (docs/attachments.md): defaults, and no files without a virus scanner unless
// scan = false says so.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeConfig } from '../../src/cli/check-summary.js';
import { parseClamdAddress } from '../../src/config/attachments.js';
import type { MessageForm } from '../../src/config/config.js';
import { loadTestConfig } from '../support/config.js';

const base = { mail: { from: 'forms@example.com', to: 'owner@example.com' } };
const form = (attachments: Record<string, unknown>) => ({ path: '/contact', type: 'contact', attachments });

it('fills the defaults and keeps [storage] clamd', () => {
  const config = loadTestConfig({ ...base, storage: { clamd: '127.0.0.1:3310' }, forms: [form({})] }, '/tmp');
  const attachments = (config.forms[0] as MessageForm).attachments;
  assert.equal(attachments?.max_files, 3);
  assert.equal(attachments?.max_bytes, 10 * 1024 * 1024);
  assert.ok(attachments?.types.includes('image/*'));
  assert.equal(config.storage.clamd, '127.0.0.1:3310');
});

it('refuses attachments without clamd unless scan = false', () => {
  assert.throws(() => loadTestConfig({ ...base, forms: [form({})] }, '/tmp'), /needs \[storage\] clamd/);
  assert.doesNotThrow(() => loadTestConfig({ ...base, forms: [form({ scan: false })] }, '/tmp'));
});

it('refuses HTML, SVG and programs as types', () => {
  for (const type of ['text/html', 'image/svg+xml', 'application/x-msdownload', '*/*']) {
    assert.throws(() => loadTestConfig({ ...base, storage: { clamd: '/run/clamd.ctl' }, forms: [form({ types: [type] })] }, '/tmp'), /never accepted/, type);
  }
});

it('reads clamd as host:port or a socket path', () => {
  assert.deepEqual(parseClamdAddress('127.0.0.1:3310'), { host: '127.0.0.1', port: 3310 });
  assert.deepEqual(parseClamdAddress('[::1]:3310'), { host: '::1', port: 3310 });
  assert.deepEqual(parseClamdAddress('/run/clamav/clamd.ctl'), { path: '/run/clamav/clamd.ctl' });
});

it('postbox check warns of a form that delivers files unscanned', () => {
  const config = loadTestConfig({ ...base, forms: [form({ scan: false })] }, '/tmp');
  assert.match(describeConfig(config), /warning: \/contact deliver attachments without a virus scan/);
});

it('takes [storage] kind = "s3" with its endpoint, bucket and keys, and names each one missing', () => {
  const s3 = { kind: 's3', endpoint: 'http://127.0.0.1:9000', bucket: 'postbox-files', access_key_id: 'key', secret_access_key: 'secret', clamd: '127.0.0.1:3310' };
  const config = loadTestConfig({ ...base, storage: s3, forms: [form({})] }, '/tmp');
  assert.equal(config.storage.kind, 's3');
  assert.equal(config.storage.region, 'us-east-1');
  assert.equal(config.storage.prefix, 'attachments/');
  assert.equal(config.storage.path_style, true);
  for (const key of ['endpoint', 'bucket', 'access_key_id', 'secret_access_key']) {
    const { [key]: _left, ...rest } = s3 as Record<string, string>;
    assert.throws(() => loadTestConfig({ ...base, storage: rest, forms: [form({})] }, '/tmp'), new RegExp(`storage\\.${key}: is required with kind = "s3"`), key);
  }
  assert.throws(() => loadTestConfig({ ...base, storage: { ...s3, endpoint: 'ftp://files.example' }, forms: [form({})] }, '/tmp'), /storage\.endpoint/);
  assert.throws(() => loadTestConfig({ ...base, storage: { ...s3, kind: 'gcs' }, forms: [form({})] }, '/tmp'), /must be "files" or "s3"/);
});

it('postbox check names where attachments are kept, and warns when links would be relative', () => {
  const s3 = { kind: 's3', endpoint: 'https://s3.eu-west-1.amazonaws.com', bucket: 'postbox-files', access_key_id: 'key', secret_access_key: 'a-secret', clamd: '127.0.0.1:3310' };
  const summary = describeConfig(loadTestConfig({ ...base, storage: s3, forms: [form({})] }, '/tmp'));
  assert.match(summary, /attachments in the S3 bucket postbox-files at s3\.eu-west-1\.amazonaws\.com \(prefix "attachments\/"\)/);
  assert.doesNotMatch(summary, /a-secret/);
  assert.match(summary, /warning: forms take files but \[server\] public_url is not set/);
  const local = describeConfig(loadTestConfig({ ...base, server: { public_url: 'https://forms.example.com' }, storage: { clamd: '127.0.0.1:3310' }, forms: [form({})] }, '/data'));
  assert.match(local, /attachments in \/data\/data\/attachments\//);
  assert.doesNotMatch(local, /public_url is not set/);
});

it('takes [blog] media_storage = "s3" only with an S3 [storage] and without git', () => {
  const s3 = { kind: 's3', endpoint: 'http://127.0.0.1:9000', bucket: 'postbox-files', access_key_id: 'key', secret_access_key: 'secret' };
  const blog = (table: Record<string, unknown>) => ({ site: { title: 'Blog', base_url: 'https://example.com' }, blog: { content_dir: '.', ...table } });
  assert.equal(loadTestConfig(blog({}), '/tmp').blog?.media_storage, 'content_dir');
  const inBucket = loadTestConfig({ ...blog({ media_storage: 's3' }), storage: s3 }, '/tmp');
  assert.equal(inBucket.blog?.media_storage, 's3');
  assert.match(describeConfig(inBucket), /uploaded blog images in the S3 bucket postbox-files under "media\/"/);
  assert.throws(() => loadTestConfig(blog({ media_storage: 's3' }), '/tmp'), /blog\.media_storage: needs \[storage\] kind = "s3"/);
  assert.throws(() => loadTestConfig({ ...blog({ media_storage: 's3', git: { enabled: true } }), storage: s3 }, '/tmp'), /blog\.media_storage: is for sites without \[blog\.git\]/);
  assert.throws(() => loadTestConfig(blog({ media_storage: 'disk' }), '/tmp'), /must be "content_dir" or "s3"/);
});
