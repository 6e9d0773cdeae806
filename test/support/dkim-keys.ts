// RSA key pairs for DKIM tests, made once per test process: the private key in PEM for [mail.dkim], the
// public key as the DNS TXT record a receiver looks up (docs/configuration.md "[mail.dkim]").
import { generateKeyPairSync } from 'node:crypto';

export interface DkimTestKey {
  /** PKCS#8 PEM, as `openssl genpkey` writes it. */
  privateKeyPem: string;
  /** The record to publish at `<selector>._domainkey.<domain>`: `v=DKIM1; k=rsa; p=<base64 SPKI>`. */
  txtRecord: string;
}

const made = new Map<number, DkimTestKey>();

/** An RSA key of `bits` (2048 unless said), the same object for every call in one process. */
export function dkimTestKey(bits = 2048): DkimTestKey {
  let key = made.get(bits);
  if (!key) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
    const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    key = { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), txtRecord: `v=DKIM1; k=rsa; p=${spki}` };
    made.set(bits, key);
  }
  return key;
}
