// XML text for the RSS feed and the sitemap: escaping, and removal of characters XML 1.0 forbids.

// XML 1.0 section 2.2 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const illegalXmlCharacters = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text safe in element content and in quoted attribute values. */
export function escapeXml(text: string): string {
  return text.replace(illegalXmlCharacters, '').replace(/[&<>"']/g, (character) => entities[character]!);
}
