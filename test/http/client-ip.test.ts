import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeAddress, resolveClientIp } from '../../src/http/client-ip.js';

type Headers = Record<string, string | string[] | undefined>;

describe('resolveClientIp without trusted proxy headers', () => {
  const cases: Array<[string, Headers, string | undefined, string]> = [
    ['IPv4 peer', {}, '203.0.113.5', '203.0.113.5'],
    ['IPv6 peer, lower-cased', {}, '2001:DB8::1', '2001:db8::1'],
    ['loopback IPv6 peer', {}, '::1', '::1'],
    ['IPv4-mapped IPv6 peer becomes IPv4', {}, '::ffff:203.0.113.5', '203.0.113.5'],
    ['IPv4-mapped, upper case prefix', {}, '::FFFF:203.0.113.5', '203.0.113.5'],
    ['no peer address (closed socket)', {}, undefined, 'unknown'],
    ['peer address that is not an IP', {}, 'localhost', 'unknown'],
    ['X-Forwarded-For is ignored', { 'x-forwarded-for': '198.51.100.7' }, '203.0.113.5', '203.0.113.5'],
    ['X-Real-IP is ignored', { 'x-real-ip': '198.51.100.8' }, '203.0.113.5', '203.0.113.5'],
  ];
  for (const [why, headers, peer, expected] of cases) {
    it(`${why} -> ${expected}`, () => {
      assert.equal(resolveClientIp(headers, peer, false), expected);
    });
  }
});

describe('resolveClientIp with trusted proxy headers', () => {
  const peer = '10.0.0.2';
  const cases: Array<[string, Headers, string]> = [
    ['single X-Forwarded-For hop', { 'x-forwarded-for': '198.51.100.7' }, '198.51.100.7'],
    ['first hop of several', { 'x-forwarded-for': '198.51.100.7, 10.0.0.1, 10.0.0.2' }, '198.51.100.7'],
    ['first hop with spaces around it', { 'x-forwarded-for': '   198.51.100.7  ,10.0.0.1' }, '198.51.100.7'],
    ['first hop without spaces after commas', { 'x-forwarded-for': '198.51.100.7,10.0.0.1' }, '198.51.100.7'],
    ['IPv4 first hop with a port', { 'x-forwarded-for': '198.51.100.7:4711, 10.0.0.1' }, '198.51.100.7'],
    ['bracketed IPv6 first hop with a port', { 'x-forwarded-for': '[2001:DB8::7]:443' }, '2001:db8::7'],
    ['bracketed IPv6 first hop without a port', { 'x-forwarded-for': '[2001:db8::7]' }, '2001:db8::7'],
    ['bare IPv6 first hop', { 'x-forwarded-for': '2001:db8::7, 10.0.0.1' }, '2001:db8::7'],
    ['IPv4-mapped IPv6 first hop', { 'x-forwarded-for': '::ffff:198.51.100.7' }, '198.51.100.7'],
    ['garbage first hop falls back to X-Real-IP', { 'x-forwarded-for': 'garbage, 198.51.100.9', 'x-real-ip': '198.51.100.8' }, '198.51.100.8'],
    ['"unknown" first hop falls back to the peer', { 'x-forwarded-for': 'unknown, 198.51.100.9' }, peer],
    ['empty first hop falls back to the peer', { 'x-forwarded-for': ', 198.51.100.9' }, peer],
    ['empty header falls back to X-Real-IP', { 'x-forwarded-for': '', 'x-real-ip': '198.51.100.8' }, '198.51.100.8'],
    ['IPv4 with a bad octet is garbage', { 'x-forwarded-for': '198.51.100.256' }, peer],
    ['host name is garbage', { 'x-forwarded-for': 'proxy.example.com' }, peer],
    ['port without an address is garbage', { 'x-forwarded-for': ':8080' }, peer],
    ['two ports are garbage', { 'x-forwarded-for': '198.51.100.7:1:2' }, peer],
    ['header injection attempt is garbage', { 'x-forwarded-for': '198.51.100.7\r\nX: y' }, peer],
    ['repeated header: the first value counts', { 'x-forwarded-for': ['198.51.100.7', '198.51.100.9'] }, '198.51.100.7'],
    ['X-Real-IP when X-Forwarded-For is absent', { 'x-real-ip': '198.51.100.8' }, '198.51.100.8'],
    ['X-Real-IP with spaces and a port', { 'x-real-ip': ' 198.51.100.8:1234 ' }, '198.51.100.8'],
    ['X-Real-IP IPv4-mapped', { 'x-real-ip': '::ffff:198.51.100.8' }, '198.51.100.8'],
    ['X-Forwarded-For wins over X-Real-IP', { 'x-forwarded-for': '198.51.100.7', 'x-real-ip': '198.51.100.8' }, '198.51.100.7'],
    ['garbage X-Real-IP falls back to the peer', { 'x-real-ip': 'nope' }, peer],
    ['no proxy headers: the peer', {}, peer],
  ];
  for (const [why, headers, expected] of cases) {
    it(`${why} -> ${expected}`, () => {
      assert.equal(resolveClientIp(headers, peer, true), expected);
    });
  }

  it('falls back to the peer without its IPv4-mapped prefix', () => {
    assert.equal(resolveClientIp({ 'x-forwarded-for': 'garbage' }, '::ffff:10.0.0.2', true), '10.0.0.2');
  });

  it('answers "unknown" when nothing usable is left', () => {
    assert.equal(resolveClientIp({ 'x-forwarded-for': 'garbage' }, undefined, true), 'unknown');
  });
});

describe('normalizeAddress', () => {
  const cases: Array<[string, string | undefined]> = [
    ['192.0.2.1', '192.0.2.1'],
    ['192.0.2.1:80', '192.0.2.1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['::FFFF:192.0.2.1', '192.0.2.1'],
    ['[::ffff:192.0.2.1]:80', '192.0.2.1'],
    ['FE80::1', 'fe80::1'],
    ['[::1]:8080', '::1'],
    ['', undefined],
    ['192.0.2', undefined],
    ['[192.0.2.1', undefined],
    ['example.com', undefined],
  ];
  for (const [raw, expected] of cases) {
    it(`${JSON.stringify(raw)} -> ${String(expected)}`, () => {
      assert.equal(normalizeAddress(raw), expected);
    });
  }
});
