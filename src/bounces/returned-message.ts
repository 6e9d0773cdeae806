// The two halves of a bounce (docs/bounces.md "How a mail is read"): the notice the mail system wrote
// and the copy of the message it returns. The notice is where the reason is; the copy is where the original
// Message-ID and X-Postbox-* headers are, and its words (any text of the original) must never be read as the
// reason. A copy comes as a message/rfc822 or text/rfc822-headers part, or inline after a separator line.

import { parseMessage, walkParts, type MimePart } from './mime.js';

const RETURNED_TYPES = /^(?:message\/(?:rfc822|global|rfc822-headers|global-headers)|text\/rfc822-headers)$/;

/** The line an MTA writes before the copy of the message it returns inside its text. */
const COPY_SEPARATOR = new RegExp(
  [
    String.raw`^[ \t]*-{2,}[ \t]*(?:this is a copy of (?:the|your) message|below this line is a copy of the message|original message|(?:the )?(?:original|returned|undelivered|unsent) (?:message|mail)|message (?:headers )?follows)[^\n]*$`,
    String.raw`^[ \t]*(?:original message follows|original message headers|[-=]+ ?original message ?[-=]+|unsent message below|the original message headers are included|message headers follow\.?[ \t]*$)[^\n]*$`,
  ].join('|'),
  'im',
);

/** The notice's own text (what the mail system wrote) and the returned copy, if any. */
export interface ReportParts {
  /** The text of the notice, from its text parts outside the returned copy, cut before an inline copy. */
  notice: string;
  /** The returned message (maybe only its headers). */
  returned?: MimePart;
}

/** Splits `report` into the notice and the returned copy. */
export function splitReport(report: MimePart): ReportParts {
  const outside = walkParts(report, (part) => !RETURNED_TYPES.test(part.type));
  let returned = outside.find((part) => RETURNED_TYPES.test(part.type))?.parts[0];
  const texts: string[] = [];
  for (const part of outside) {
    if (part.parts.length > 0 || !isReadable(part)) continue;
    const text = part.type === 'text/html' ? htmlText(part.text) : part.text;
    const separator = COPY_SEPARATOR.exec(text);
    if (!separator) {
      texts.push(text);
      continue;
    }
    texts.push(text.slice(0, separator.index));
    if (!returned) {
      const copy = parseMessage(text.slice(separator.index + separator[0].length).replace(/^\s*\n/, ''));
      if (copy.headers.length > 0) returned = copy;
    }
  }
  return { notice: texts.join('\n'), returned };
}

/** The headers of the returned message Postbox looks for: Message-ID and every X-Postbox-*, names lower-cased. */
export function originalHeaders(returned: MimePart | undefined): Record<string, string> | undefined {
  if (!returned) return undefined;
  const found: Record<string, string> = {};
  for (const { name, value } of returned.headers) {
    if ((name === 'message-id' || name.startsWith('x-postbox-')) && !(name in found)) found[name] = value;
  }
  return Object.keys(found).length > 0 ? found : undefined;
}

function isReadable(part: MimePart): boolean {
  return part.type.startsWith('text/') && part.type !== 'text/rfc822-headers';
}

/** The words of an HTML notice, tags and entities taken out: enough to read a reason in. */
function htmlText(html: string): string {
  return withoutStylesAndScripts(html)
    .replace(/<br\s*\/?>|<\/(?:p|div|tr|li|h\d)>/gi, '\n')
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * `html` without its style and script elements, read once from left to right (a pattern that looks for each
 * element's end again from every opening tag takes quadratic time on tags that never close); an element left open
 * runs to the end.
 */
function withoutStylesAndScripts(html: string): string {
  const lower = html.toLowerCase();
  const kept: string[] = [];
  let from = 0;
  for (;;) {
    const open = /<(style|script)\b/g;
    open.lastIndex = from;
    const found = open.exec(lower);
    if (!found) break;
    kept.push(html.slice(from, found.index), ' ');
    const close = lower.indexOf(`</${found[1]}>`, found.index);
    if (close < 0) return kept.join('');
    from = close + found[1]!.length + 3;
  }
  kept.push(html.slice(from));
  return kept.join('');
}
