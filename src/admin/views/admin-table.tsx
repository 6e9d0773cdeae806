import type { ComponentChildren } from 'preact';

export interface AdminTableProps {
  caption: ComponentChildren;
  /** The column headings, in order: each one a <th scope="col">. */
  headings: readonly ComponentChildren[];
  /** A class besides admin-table (the dashboard's counters: "admin-counters"). */
  extraClass?: string;
  /** The rows of the <tbody>. */
  children?: ComponentChildren;
}

// The admin pages' table of rows under one row of column headings, written once instead of in every page.
export function AdminTable({ caption, headings, extraClass, children }: AdminTableProps) {
  return (
    <table class={extraClass ? `admin-table ${extraClass}` : 'admin-table'}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {headings.map((heading) => (
            <th scope="col">{heading}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
