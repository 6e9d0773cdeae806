import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { createClientAddressResolver, normalizeAddress } from '../../src/http/client-ip.js';

const PEER = '10.0.0.2';

function request(headers: IncomingHttpHeaders, remoteAddress: string | undefined) {
  return { socket: { remoteAddress }, headers };
}

describe('createClientAddressResolver(0): the peer address', () => {
  const cases: Array<[string, IncomingHttpHeaders, string | undefined, string]> = [
    ['IPv4 peer', {}, '203.0.113.5', '203.0.113.5'],
    ['IPv6 peer, lower case and compressed', {}, '2001:DB8:0:0::1', '2001:db8::1'],
    ['loopback IPv6 peer', {}, '::1', '::1'],
    ['IPv4-mapped IPv6 peer becomes IPv4', {}, '::ffff:203.0.113.5', '203.0.113.5'],
    ['IPv4-mapped, upper-case prefix', {}, '::FFFF:203.0.113.5', '203.0.113.5'],
    ['IPv4-mapped, written in hex', {}, '::ffff:cb00:7105', '203.0.113.5'],
    ['no peer address (closed socket)', {}, undefined, 'unknown'],
    ['peer address that is not an IP', {}, 'localhost', 'unknown'],
    ['X-Forwarded-For is ignored', { 'x-forwarded-for': '198.51.100.7' }, '203.0.113.5', '203.0.113.5'],
    ['X-Real-IP is ignored', { 'x-real-ip': '198.51.100.8' }, '203.0.113.5', '203.0.113.5'],
  ];
  for (const [why, headers, peer, expected] of cases) {
    it(`${why} -> ${expected}`, () => {
      assert.equal(createClientAddressResolver(0)(request(headers, peer)), expected);
    });
  }

  it('never reads request.headers (Node builds that object on first use)', () => {
    const resolve = createClientAddressResolver(0);
    const untouchable = {
      socket: { remoteAddress: '203.0.113.5' },
      get headers(): IncomingHttpHeaders {
        throw new Error('headers were read');
      },
    };
    assert.equal(resolve(untouchable), '203.0.113.5');
  });

  it('works the address out once per connection', () => {
    const resolve = createClientAddressResolver(0);
    const socket = { remoteAddress: '203.0.113.5' };
    assert.equal(resolve({ socket, headers: {} }), '203.0.113.5');
    socket.remoteAddress = '198.51.100.1';
    assert.equal(resolve({ socket, headers: {} }), '203.0.113.5', 'same socket, remembered address');
    assert.equal(resolve({ socket: { remoteAddress: '198.51.100.1' }, headers: {} }), '198.51.100.1', 'another socket');
  });
});

describe('createClientAddressResolver(1): one trusted proxy', () => {
  const cases: Array<[string, IncomingHttpHeaders, string]> = [
    ['a proxy that replaces the header', { 'x-forwarded-for': '198.51.100.7' }, '198.51.100.7'],
    ['a spoofed leftmost hop behind a proxy that appends', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' }, '198.51.100.7'],
    ['several spoofed hops', { 'x-forwarded-for': '1.1.1.1, 2.2.2.2,3.3.3.3, 198.51.100.7' }, '198.51.100.7'],
    ['spaces and tabs around the hop', { 'x-forwarded-for': '6.6.6.6 ,\t198.51.100.7  ' }, '198.51.100.7'],
    ['a repeated header counts as one list', { 'x-forwarded-for': ['6.6.6.6', '198.51.100.7'] }, '198.51.100.7'],
    ['IPv4 hop with a port', { 'x-forwarded-for': '198.51.100.7:4711' }, '198.51.100.7'],
    ['bracketed IPv6 hop with a port', { 'x-forwarded-for': '[2001:DB8::7]:443' }, '2001:db8::7'],
    ['bracketed IPv6 hop without a port', { 'x-forwarded-for': '[2001:db8::7]' }, '2001:db8::7'],
    ['bare IPv6 hop, upper case', { 'x-forwarded-for': '6.6.6.6, 2001:DB8:0::7' }, '2001:db8::7'],
    ['IPv4-mapped IPv6 hop', { 'x-forwarded-for': '::ffff:198.51.100.7' }, '198.51.100.7'],
    ['the client address X-Real-IP names does not override the header', { 'x-forwarded-for': '198.51.100.7', 'x-real-ip': '198.51.100.8' }, '198.51.100.7'],
    ['no X-Forwarded-For: X-Real-IP', { 'x-real-ip': '198.51.100.8' }, '198.51.100.8'],
    ['X-Real-IP with spaces and a port', { 'x-real-ip': ' 198.51.100.8:1234 ' }, '198.51.100.8'],
    ['X-Real-IP IPv4-mapped', { 'x-real-ip': '::ffff:198.51.100.8' }, '198.51.100.8'],
    ['empty X-Forwarded-For: X-Real-IP', { 'x-forwarded-for': '', 'x-real-ip': '198.51.100.8' }, '198.51.100.8'],
    ['X-Forwarded-For of commas only: X-Real-IP', { 'x-forwarded-for': ' , ,', 'x-real-ip': '198.51.100.8' }, '198.51.100.8'],
    ['garbage nearest hop: X-Real-IP', { 'x-forwarded-for': '198.51.100.9, garbage', 'x-real-ip': '198.51.100.8' }, '198.51.100.8'],
    ['garbage nearest hop, no X-Real-IP: the peer', { 'x-forwarded-for': '198.51.100.9, garbage' }, PEER],
    ['"unknown" hop: the peer', { 'x-forwarded-for': 'unknown' }, PEER],
    ['IPv4 with a bad octet is garbage', { 'x-forwarded-for': '198.51.100.256' }, PEER],
    ['a host name is garbage', { 'x-forwarded-for': 'proxy.example.com' }, PEER],
    ['a port without an address is garbage', { 'x-forwarded-for': ':8080' }, PEER],
    ['two ports are garbage', { 'x-forwarded-for': '198.51.100.7:1:2' }, PEER],
    ['an IPv4 with a leading zero is garbage', { 'x-forwarded-for': '198.051.100.7' }, PEER],
    ['garbage X-Real-IP: the peer', { 'x-real-ip': 'nope' }, PEER],
    ['X-Real-IP listing two addresses is garbage', { 'x-real-ip': '198.51.100.8, 198.51.100.9' }, PEER],
    ['no proxy headers: the peer', {}, PEER],
  ];
  for (const [why, headers, expected] of cases) {
    it(`${why} -> ${expected}`, () => {
      assert.equal(createClientAddressResolver(1)(request(headers, PEER)), expected);
    });
  }

  it('falls back to the peer without its IPv4-mapped prefix', () => {
    assert.equal(createClientAddressResolver(1)(request({ 'x-forwarded-for': 'garbage' }, '::ffff:10.0.0.2')), '10.0.0.2');
  });

  it('answers "unknown" when nothing usable is left', () => {
    assert.equal(createClientAddressResolver(1)(request({ 'x-forwarded-for': 'garbage' }, undefined)), 'unknown');
  });
});

describe('createClientAddressResolver(n): the address the outermost trusted proxy saw', () => {
  const cases: Array<[string, number, string, string]> = [
    ['2 hops: CDN then nginx, a spoofed hop in front', 2, '6.6.6.6, 198.51.100.7, 10.0.0.1', '198.51.100.7'],
    ['2 hops, nothing spoofed', 2, '198.51.100.7, 10.0.0.1', '198.51.100.7'],
    ['2 hops trusted, only one in the header: its leftmost', 2, '198.51.100.7', '198.51.100.7'],
    ['2 hops, garbage where the client should be: the peer', 2, 'garbage, 10.0.0.1', PEER],
    ['3 hops', 3, '6.6.6.6, 198.51.100.7, 10.0.0.1, 10.0.0.3', '198.51.100.7'],
    ['1 hop on the same header takes the nearest', 1, '6.6.6.6, 198.51.100.7, 10.0.0.1', '10.0.0.1'],
  ];
  for (const [why, hops, forwarded, expected] of cases) {
    it(`${why} -> ${expected}`, () => {
      assert.equal(createClientAddressResolver(hops)(request({ 'x-forwarded-for': forwarded }, PEER)), expected);
    });
  }

  for (const hops of [-1, 1.5, Number.NaN]) {
    it(`refuses ${hops} trusted hops`, () => {
      assert.throws(() => createClientAddressResolver(hops), RangeError);
    });
  }
});

describe('normalizeAddress', () => {
  const cases: Array<[string, string | undefined]> = [
    ['192.0.2.1', '192.0.2.1'],
    ['192.0.2.1:80', '192.0.2.1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['::FFFF:192.0.2.1', '192.0.2.1'],
    ['[::ffff:192.0.2.1]:80', '192.0.2.1'],
    ['0:0:0:0:0:ffff:c000:201', '192.0.2.1'],
    ['FE80::1', 'fe80::1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['[::1]:8080', '::1'],
    ['', undefined],
    ['192.0.2', undefined],
    ['[192.0.2.1', undefined],
    ['example.com', undefined],
    ['192.0.2.1\r\nX: y', undefined],
  ];
  for (const [raw, expected] of cases) {
    it(`${JSON.stringify(raw)} -> ${String(expected)}`, () => {
      assert.equal(normalizeAddress(raw), expected);
    });
  }
});
