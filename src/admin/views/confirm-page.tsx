// "Are you sure?" before anything is deleted (docs/admin.md): a POST to delete that does not carry `confirm=yes`
// answers this page, which names what would be deleted and says what deleting does. Its "Delete" button posts the
// same fields again with `confirm=yes` and the CSRF field; "Cancel" is a link back, and changes nothing.
import type { ComponentChildren } from 'preact';
import type { AdminSession } from '../sessions.js';
import { CsrfField } from './csrf-field.js';
import { Layout, type AdminSection } from './layout.js';

/** The field and value that make a delete POST act. */
export const CONFIRM_FIELD = 'confirm';
export const CONFIRM_VALUE = 'yes';

/** Whether a delete POST's form says the person confirmed. */
export function isConfirmed(form: URLSearchParams | undefined): boolean {
  return form?.get(CONFIRM_FIELD) === CONFIRM_VALUE;
}

export interface ConfirmPageProps {
  session: AdminSession;
  section?: AdminSection;
  /** The page's title and heading, a question: "Delete the post hello.md?". */
  title: string;
  /** What will be deleted, and what deleting it does. */
  children: ComponentChildren;
  /** Where "Delete" posts, and the fields it posts (besides `confirm=yes` and the CSRF token). */
  action: string;
  fields: Record<string, string>;
  /** Where "Cancel" goes. */
  cancel: { href: string; label?: string };
  /** The button's text. */
  button?: string;
}

export function ConfirmPage({ session, section, title, children, action, fields, cancel, button = 'Delete' }: ConfirmPageProps) {
  return (
    <Layout title={title} session={session} section={section}>
      <h1>{title}</h1>
      {children}
      <form method="post" action={action} class="admin-actions">
        <CsrfField session={session} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name={CONFIRM_FIELD} value={CONFIRM_VALUE} />
        <button type="submit">{button}</button>
        <a href={cancel.href}>{cancel.label ?? 'Cancel'}</a>
      </form>
    </Layout>
  );
}
