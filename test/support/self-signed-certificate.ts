// A self-signed X.509 certificate made in the test, with its RSA key: for SNS signatures (docs/bounces.md "Where
// bounces come from"), whose certificate the intake fetches and reads with node:crypto's X509Certificate. Written
// as DER by hand (a TBSCertificate signed with SHA-256): node:crypto reads certificates but makes none.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface TestCertificate {
  /** The certificate, PEM, as the SigningCertURL would serve it. */
  pem: string;
  privateKey: KeyObject;
}

const DAY_MS = 86_400_000;

/** A certificate for `commonName` valid from `notBefore` to `notAfter` (ms; a year around now unless given). */
export function selfSignedCertificate(options: { commonName?: string; notBefore?: number; notAfter?: number } = {}): TestCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const now = Date.now();
  const name = sequence(set(sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(options.commonName ?? 'sns.test.amazonaws.com')))));
  const algorithm = sequence(oid('1.2.840.113549.1.1.11'), tlv(0x05));
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(Buffer.from([0x01, 0x23, 0x45, 0x67])),
    algorithm,
    name,
    sequence(utcTime(options.notBefore ?? now - DAY_MS), utcTime(options.notAfter ?? now + 365 * DAY_MS)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, algorithm, tlv(0x03, Buffer.from([0]), signature));
  const lines = der.toString('base64').match(/.{1,64}/g)!;
  return { pem: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`, privateKey };
}

function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), lengthOf(body.length), body]);
}

function lengthOf(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const sequence = (...contents: Buffer[]) => tlv(0x30, ...contents);
const set = (...contents: Buffer[]) => tlv(0x31, ...contents);

/** A positive INTEGER: a leading zero byte when the high bit is set. */
function integer(bytes: Buffer): Buffer {
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const base128: number[] = [];
    for (let value = arc; ; value = Math.floor(value / 128)) {
      base128.unshift((value % 128) | (base128.length > 0 ? 0x80 : 0));
      if (value < 128) break;
    }
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime (YYMMDDHHMMSSZ), which X.509 uses for years before 2050. */
function utcTime(ms: number): Buffer {
  const iso = new Date(ms).toISOString();
  return tlv(0x17, Buffer.from(`${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`));
}
