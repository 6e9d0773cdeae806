// The mail layouts of newsletter lists (docs/newsletter.md "Layouts"): `layout` on a `[[newsletter.lists]]` entry is a
// Markdown file, resolved against the configuration file's folder, read once when the file is loaded so that a
// missing one fails `postbox check` with its key path; `colors` are the few colours a mail takes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** `#rgb` or `#rrggbb`: nothing else reaches a style attribute. */
const hexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a colour such as "#1f2328" or "#fff"');

export const layoutColorsSchema = z.strictObject({ text: hexColor.optional(), link: hexColor.optional(), background: hexColor.optional() });

/** The colours of a list's mails; each has a default. */
export interface LayoutColors {
  text: string;
  link: string;
  background: string;
}

/** A list's layout as the code uses it: the Markdown of the file, and the colours. */
export interface MailLayout {
  /** The file's Markdown: a line `{{content}}` stands for the mail's own body, the rest above it is the header and below it the footer. */
  markdown: string;
  colors: LayoutColors;
}

export const DEFAULT_LAYOUT_COLORS: LayoutColors = Object.freeze({ text: '#1f2328', link: '#0b57d0', background: '#ffffff' });

/** A layout file that could not be read, at its key path. */
export interface LayoutProblem {
  path: string;
  message: string;
}

/**
 * The layouts of `lists` by list id (those with a `layout` or `colors`), read from their files; or the first file
 * that cannot be read. A list with colours but no file gets a layout of the body alone.
 */
export function readMailLayouts(
  lists: ReadonlyArray<{ id: string; layout?: string; colors?: z.output<typeof layoutColorsSchema> }>,
  baseDir: string,
): { layouts: Map<string, MailLayout> } | { problem: LayoutProblem } {
  const layouts = new Map<string, MailLayout>();
  for (const [index, list] of lists.entries()) {
    if (list.layout === undefined && list.colors === undefined) continue;
    let markdown = '{{content}}\n';
    if (list.layout !== undefined) {
      const file = path.resolve(baseDir, list.layout);
      try {
        markdown = readFileSync(file, 'utf8');
      } catch (error) {
        return { problem: { path: `newsletter.lists[${index}].layout`, message: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})` } };
      }
    }
    layouts.set(list.id, { markdown, colors: { ...DEFAULT_LAYOUT_COLORS, ...list.colors } });
  }
  return { layouts };
}
