import type { ComponentChildren } from 'preact';

export interface AdminTableProps {
  caption: ComponentChildren;
  /** The column headings, in order: each one a <th scope="col">. */
  headings: readonly ComponentChildren[];
  /** A class besides admin-table (the dashboard's counters: "admin-counters"). */
  extraClass?: string;
  /**
   * The caption's id, which names the scrolling region around the table. By default it is made from the caption
   * and the headings; give one when a page has two tables alike in both.
   */
  id?: string;
  /** The rows of the <tbody>. */
  children?: ComponentChildren;
}

/** The text of what a caption or heading says, for an id. */
function textOf(node: ComponentChildren): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join(' ');
  return '';
}

/** "admin-table-newest-first-address-subscribed". */
export function tableIdOf(caption: ComponentChildren, headings: readonly ComponentChildren[]): string {
  const words = `${textOf(caption)} ${headings.slice(0, 3).map(textOf).join(' ')}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `admin-table-${words || 'rows'}`;
}

// The admin pages' table of rows under one row of column headings, written once instead of in every page. It sits
// in a region of its own that scrolls sideways when the table is wider than the screen, so the page never does;
// the region is named by the table's caption and takes the keyboard focus, so it can be scrolled without a mouse.
export function AdminTable({ caption, headings, extraClass, id, children }: AdminTableProps) {
  const captionId = id ?? tableIdOf(caption, headings);
  return (
    <div class="admin-table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table class={extraClass ? `admin-table ${extraClass}` : 'admin-table'}>
        <caption id={captionId}>{caption}</caption>
        <thead>
          <tr>
            {headings.map((heading) => (
              <th scope="col">{heading}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
