// The mail one subscriber gets from a campaign (docs/newsletter.md "Sending a post"): the campaign's body with the
// footer that carries their own unsubscribe link, the list headers of RFC 2369/8058/2919, and `Precedence: bulk`.
import type { MailList, MailMessage } from '../../ports.js';
import { composeCampaignMail } from './campaign-mail.js';
import type { CampaignBody } from './campaign-store.js';

export interface RecipientMailParts {
  /** `mail.from`. */
  from: string;
  to: string;
  body: CampaignBody;
  siteTitle: string;
  postUrl: string;
  /** The recipient's List-Id and List-Unsubscribe. */
  list: MailList;
  /** The recipient's preference page (docs/newsletter.md "Preferences"). */
  preferencesUrl?: string;
}

export function createRecipientMail(parts: RecipientMailParts): MailMessage {
  const mail = composeCampaignMail(parts.body, { unsubscribeUrl: parts.list.unsubscribeUrl, preferencesUrl: parts.preferencesUrl, siteTitle: parts.siteTitle, postUrl: parts.postUrl });
  return {
    from: parts.from,
    to: parts.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // RFC 3834 section 5: a newsletter is written by a program, not in answer to anyone.
    autoSubmitted: 'auto-generated',
    precedence: 'bulk',
    list: parts.list,
  };
}
