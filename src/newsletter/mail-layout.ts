// A list's mail layout (docs/newsletter.md "Layouts"): a Markdown file whose line `{{content}}` stands for the
// mail's own body; what is above it is the header, what is below the footer. Pure.

/** The marker of the body: `{{content}}` alone on its line (spaces inside the braces allowed). */
const CONTENT_LINE = /^[ \t]*\{\{\s*content\s*\}\}[ \t]*$/m;

/** The header and footer of `markdown`; a layout without the marker is all header, the body after it. */
export function splitLayout(markdown: string): { header: string; footer: string } {
  const match = CONTENT_LINE.exec(markdown);
  if (!match) return { header: markdown, footer: '' };
  return { header: markdown.slice(0, match.index), footer: markdown.slice(match.index + match[0].length) };
}
