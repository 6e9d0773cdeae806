// The welcome automation's mail (docs/newsletter.md "Automations"): the configured Markdown body with its
// `{{field}}` places filled from the sign-up, rendered in the list's layout (docs/newsletter.md "Layouts") to HTML
// with inline styles and its plain text, with the footer every mail to a subscriber carries. Pure.
import type { MailLayout, WelcomeAutomation } from '../config/config.js';
import type { MailList, MailMessage } from '../ports.js';
import { composeCampaignMail, renderMailContent, renderMailMarkdown } from './campaigns/campaign-mail.js';

/** What a welcome body may name: `{{email}}`, `{{list}}` (the list's name), `{{lang}}`. */
export type WelcomeFields = Record<'email' | 'list' | 'lang', string>;

/** `text` with each `{{ field }}` replaced by its value; a field it does not know becomes nothing. */
export function fillFields(text: string, fields: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([A-Za-z_]+)\s*\}\}/g, (_place, name: string) => (Object.hasOwn(fields, name) ? fields[name]! : ''));
}

export interface WelcomeMailParts {
  from: string;
  to: string;
  /** The automation, or one of its steps: what is mailed. */
  automation: Pick<WelcomeAutomation, 'subject' | 'body'>;
  fields: WelcomeFields;
  /** List-Id and List-Unsubscribe of the list welcomed to. */
  list: MailList;
  preferencesUrl: string;
  /** The site the mail names, and the address its relative links resolve on. */
  site: { title: string; baseUrl: string };
  /** The list's layout; the default one when undefined. */
  layout?: MailLayout;
}

export function welcomeMail(parts: WelcomeMailParts): MailMessage {
  const body = fillFields(parts.automation.body, parts.fields).trim();
  const subject = fillFields(parts.automation.subject, parts.fields);
  const content = renderMailContent({ subject, lang: parts.fields.lang || 'en', html: renderMailMarkdown(body), baseUrl: parts.site.baseUrl, site: parts.site, layout: parts.layout });
  const mail = composeCampaignMail(content, { unsubscribeUrl: parts.list.unsubscribeUrl, preferencesUrl: parts.preferencesUrl, siteTitle: parts.site.title });
  return {
    from: parts.from,
    to: parts.to,
    subject,
    text: mail.text,
    html: mail.html,
    autoSubmitted: 'auto-generated',
    precedence: 'bulk',
    list: parts.list,
  };
}
