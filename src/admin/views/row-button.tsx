// A button in a table row that POSTs one value (Retry a failed mail, Remove a subscriber): a form of its own with
// the CSRF field, and a label that names the row for screen readers ("Retry msg_1", not a column of "Retry").
import type { AdminSession } from '../sessions.js';
import { CsrfField } from './csrf-field.js';

export interface RowButtonProps {
  session: AdminSession;
  action: string;
  /** The field the page reads, and the row's value of it. */
  name: string;
  value: string;
  label: string;
  /** What the row is, said after the label to screen readers only. */
  rowName: string;
}

export function RowButton({ session, action, name, value, label, rowName }: RowButtonProps) {
  return (
    <form method="post" action={action} class="admin-inline-form">
      <CsrfField session={session} />
      <input type="hidden" name={name} value={value} />
      <button type="submit">
        {label}
        <span class="admin-visually-hidden"> {rowName}</span>
      </button>
    </form>
  );
}
