// The welcome automation's mail (docs/newsletter.md "Automations"): the configured Markdown body with its
// `{{field}}` places filled from the sign-up, as the plain text it reads as, with the footer every mail to a
// subscriber carries. Pure.
import type { WelcomeAutomation } from '../config/config.js';
import type { MailList, MailMessage } from '../ports.js';

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
}

export function welcomeMail(parts: WelcomeMailParts): MailMessage {
  const body = fillFields(parts.automation.body, parts.fields).trim();
  return {
    from: parts.from,
    to: parts.to,
    subject: fillFields(parts.automation.subject, parts.fields),
    text: `${body}\n\n-- \nUnsubscribe: ${parts.list.unsubscribeUrl}\nChoose your lists: ${parts.preferencesUrl}\n`,
    autoSubmitted: 'auto-generated',
    precedence: 'bulk',
    list: parts.list,
  };
}
