// The page /admin/account/passkeys: the person's own passkeys (name, when added, when last used), a form to rename
// each and a button to remove it, and the form that adds one. Adding runs in the browser (browser/passkeys.ts); without
// script, or in a browser without passkeys, the page says so.
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { RowButton } from '../views/row-button.js';
import { Time } from '../views/time.js';
import { PASSKEY_ADD_ACTION, PASSKEY_OPTIONS_ACTION, PASSKEY_REGISTER_ACTION, PASSKEY_REMOVE_ACTION, PASSKEY_RENAME_ACTION, PASSKEYS_SCRIPT } from './passkey-paths.js';
import type { StoredPasskey } from './relying-party.js';

export const MAX_LABEL_LENGTH = 100;

export interface PasskeysPageProps {
  session: AdminSession;
  passkeys: readonly StoredPasskey[];
  notice?: string;
  problem?: string;
  /** The name typed in the add form, kept. */
  label?: string;
  /** Set when the page was reached by an IP address, where no passkey can be added (relying-party.ts). */
  ipAddress?: { problem: string; localhostUrl?: string };
}

export function PasskeysPage({ session, passkeys, notice, problem, label, ipAddress }: PasskeysPageProps) {
  return (
    <Layout title="Passkeys" session={session} section="account" scripts={[PASSKEYS_SCRIPT]}>
      <h1>Passkeys</h1>
      {problem && (
        <p class="admin-problem" role="alert">
          {problem}
        </p>
      )}
      {notice && (
        <p class="admin-notice" role="status">
          {notice}
        </p>
      )}
      <p>A passkey signs you in without your name or password: your device, or a security key, proves who you are with a fingerprint, face or PIN.</p>
      {passkeys.length === 0 ? (
        <p>You have no passkeys yet.</p>
      ) : (
        <AdminTable caption={`Your passkeys (${passkeys.length})`} headings={['Name', 'Added', 'Last used', <span class="admin-visually-hidden">Actions</span>]}>
          {passkeys.map((passkey, index) => (
            <tr>
              <td>{passkey.label}</td>
              <td>
                <Time at={passkey.createdAt} zone={session.timeZone} />
              </td>
              <td>{passkey.lastUsedAt === undefined ? 'Never' : <Time at={passkey.lastUsedAt} zone={session.timeZone} />}</td>
              <td>
                <form method="post" action={PASSKEY_RENAME_ACTION} class="admin-inline-form">
                  <CsrfField session={session} />
                  <input type="hidden" name="id" value={passkey.id} />
                  <label for={`passkey-label-${index}`} class="admin-visually-hidden">
                    New name of {passkey.label}
                  </label>
                  <input id={`passkey-label-${index}`} name="label" type="text" maxLength={MAX_LABEL_LENGTH} required value={passkey.label} />
                  <button type="submit">
                    Rename<span class="admin-visually-hidden"> {passkey.label}</span>
                  </button>
                </form>
                <RowButton session={session} action={PASSKEY_REMOVE_ACTION} name="id" value={passkey.id} label="Remove" rowName={passkey.label} />
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      <h2>Add a passkey</h2>
      {ipAddress && (
        <p class="admin-problem" data-passkey-ip-address>
          {ipAddress.problem}
          {ipAddress.localhostUrl && (
            <>
              {' '}
              <a href={ipAddress.localhostUrl}>Open this page on localhost</a>
            </>
          )}
        </p>
      )}
      <p data-passkey-unsupported>Adding a passkey needs JavaScript and a browser that supports passkeys.</p>
      <form method="post" action={PASSKEY_ADD_ACTION} class="admin-form" data-passkey-register={PASSKEY_OPTIONS_ACTION} data-passkey-finish={PASSKEY_REGISTER_ACTION}>
        <CsrfField session={session} />
        <p>
          <label for="passkey-label">Name of the passkey</label>
          <input id="passkey-label" name="label" type="text" maxLength={MAX_LABEL_LENGTH} required placeholder="Laptop" value={label ?? ''} />
        </p>
        <p>
          <button type="submit">Add a passkey</button>
        </p>
        <p role="status" data-passkey-status></p>
      </form>
      <p>Adding or removing a passkey asks for your password again when you last gave it more than 15 minutes ago.</p>
    </Layout>
  );
}
