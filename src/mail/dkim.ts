// DKIM signing of every mail (docs/configuration.md "[mail.dkim]") by nodemailer's own signer, which every
// transport runs on the finished message: rsa-sha256 with relaxed/relaxed canonicalization (RFC 6376 section
// 3.4), the only algorithm and canonicalization nodemailer writes (lib/dkim/sign).
import type { DkimConfig } from '../config/config.js';

/** The transport options that sign with [mail.dkim]; none when there is no [mail.dkim]. */
export function dkimTransportOptions(dkim: DkimConfig | undefined): { dkim?: { domainName: string; keySelector: string; privateKey: string } } {
  if (!dkim) return {};
  return { dkim: { domainName: dkim.domain, keySelector: dkim.selector, privateKey: dkim.private_key } };
}
