// DKIM signing of every mail (docs/configuration.md "[mail.dkim]") by nodemailer's own signer, which every
// transport runs on the finished message: rsa-sha256 with relaxed/relaxed canonicalization (RFC 6376 section
// 3.4), the only algorithm and canonicalization nodemailer writes (lib/dkim/sign).
import type { DkimConfig } from '../../config/config.js';

/**
 * nodemailer's default list (lib/dkim/sign: RFC 4871 section 5.5) plus List-Unsubscribe-Post,
 * which RFC 8058 section 4 requires to be signed together with List-Unsubscribe.
 */
const SIGNED_HEADER_FIELDS = [
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding',
  'Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID',
  'In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post',
  'List-Owner:List-Archive:OTP-Token',
].join(':');

/** The transport options that sign with [mail.dkim]; none when there is no [mail.dkim]. */
export function dkimTransportOptions(dkim: DkimConfig | undefined): {
  dkim?: { domainName: string; keySelector: string; privateKey: string; headerFieldNames: string };
} {
  if (!dkim) return {};
  return { dkim: { domainName: dkim.domain, keySelector: dkim.selector, privateKey: dkim.private_key, headerFieldNames: SIGNED_HEADER_FIELDS } };
}
