// The pages of /admin/users: every user (config users marked, without buttons), their second factors, the open
// invitations, the invite form; and the one page that shows a new invitation's link.
import type { Account, Invitation, Role } from '../accounts/account.js';
import { ROLES } from '../accounts/account.js';
import type { AdminSession } from '../sessions.js';
import { AdminTable } from '../views/admin-table.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { RowButton } from '../views/row-button.js';
import { Time } from '../views/time.js';
import { MAX_NAME_LENGTH } from '../accounts/user-names.js';

export const USERS_PATH = '/admin/users';
export const INVITE_ACTION = '/admin/users/invite';
export const ROLE_ACTION = '/admin/users/role';
export const REMOVE_ACTION = '/admin/users/remove';
export const WITHDRAW_ACTION = '/admin/users/withdraw';

const ROLE_WORDS: Record<Role, string> = { owner: 'Owner', editor: 'Editor', author: 'Author' };

/** What the invite form held, kept after a refusal. */
export interface InviteDraft {
  name: string;
  role: string;
  email: string;
}

export interface UsersPageProps {
  session: AdminSession;
  users: readonly Account[];
  invitations: readonly Invitation[];
  notice?: string;
  /** Why the last change was refused (422), shown above everything. */
  problem?: string;
  draft?: InviteDraft;
}

export function UsersPage({ session, users, invitations, notice, problem, draft }: UsersPageProps) {
  return (
    <Layout title="Users" session={session} section="users">
      <h1>Users</h1>
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
      <AdminTable caption="Who may sign in" headings={['Name', 'Role', 'Email', 'Second factors', <span class="admin-visually-hidden">Actions</span>]}>
        {users.map((user) => (
          <tr>
            <td>
              {user.name}
              {user.name === session.user && ' (you)'}
            </td>
            <td>{user.fromConfig ? `${ROLE_WORDS[user.role]}, set in the configuration` : ROLE_WORDS[user.role]}</td>
            <td>{user.email ?? ''}</td>
            <td>
              TOTP: {user.totp ? 'yes' : 'no'}; passkeys: {user.passkeys.length}
            </td>
            <td>{user.fromConfig ? 'Change it in the configuration.' : <UserActions session={session} user={user} />}</td>
          </tr>
        ))}
      </AdminTable>
      <h2>Open invitations</h2>
      {invitations.length === 0 ? (
        <p>No open invitations.</p>
      ) : (
        <AdminTable caption="Newest first; each link works once" headings={['Name', 'Role', 'Email', 'Invited by', 'Valid until', <span class="admin-visually-hidden">Action</span>]}>
          {invitations.map((invitation) => (
            <tr>
              <td>{invitation.name}</td>
              <td>{ROLE_WORDS[invitation.role]}</td>
              <td>{invitation.email ?? ''}</td>
              <td>{invitation.createdBy}</td>
              <td>
                <Time at={invitation.expiresAt} zone={session.timeZone} />
              </td>
              <td>
                <RowButton session={session} action={WITHDRAW_ACTION} name="invitation" value={invitation.tokenHash} label="Withdraw" rowName={`the invitation of ${invitation.name}`} />
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      <h2>Invite someone</h2>
      <p>The invitation's link is shown once, after you invite; it works once, for 7 days. With an email address it is mailed too.</p>
      <form method="post" action={INVITE_ACTION} class="admin-form">
        <CsrfField session={session} />
        <p>
          <label for="invite-name">Name</label>
          <input id="invite-name" name="name" type="text" maxLength={MAX_NAME_LENGTH} required value={draft?.name ?? ''} />
        </p>
        <p>
          <label for="invite-role">Role</label>
          <select id="invite-role" name="role">
            {ROLES.map((role) => (
              <option value={role} selected={(draft?.role ?? 'editor') === role}>
                {ROLE_WORDS[role]}
              </option>
            ))}
          </select>
        </p>
        <p>
          <label for="invite-email">Email (optional)</label>
          <input id="invite-email" name="email" type="email" value={draft?.email ?? ''} />
        </p>
        <p>
          <button type="submit">Invite</button>
        </p>
      </form>
      <p>
        Owners may do everything; editors every post, publishing and campaigns; authors their own posts. Changing a role or removing a user ends their sessions at once.
      </p>
    </Layout>
  );
}

function UserActions({ session, user }: { session: AdminSession; user: Account }) {
  const id = `role-${encodeURIComponent(user.name)}`;
  return (
    <>
      <form method="post" action={ROLE_ACTION} class="admin-inline-form">
        <CsrfField session={session} />
        <input type="hidden" name="name" value={user.name} />
        <label for={id} class="admin-visually-hidden">
          Role of {user.name}
        </label>
        <select id={id} name="role">
          {ROLES.map((role) => (
            <option value={role} selected={user.role === role}>
              {ROLE_WORDS[role]}
            </option>
          ))}
        </select>
        <button type="submit">
          Change role<span class="admin-visually-hidden"> of {user.name}</span>
        </button>
      </form>
      {user.name !== session.user && <RowButton session={session} action={REMOVE_ACTION} name="name" value={user.name} label="Remove" rowName={user.name} />}
    </>
  );
}

export interface InvitationCreatedPageProps {
  session: AdminSession;
  name: string;
  role: Role;
  link: string;
  expiresAt: number;
  /** What became of the mail: sent to the queue, not asked for, no queue, or not queued. */
  mail: { kind: 'queued'; to: string } | { kind: 'none' } | { kind: 'no_queue' } | { kind: 'failed' };
}

/** The answer to an invitation: its link, shown this once. */
export function InvitationCreatedPage({ session, name, role, link, expiresAt, mail }: InvitationCreatedPageProps) {
  return (
    <Layout title="Invitation created" session={session} section="users">
      <h1>Invitation created</h1>
      <p>
        {name} is invited as {ROLE_WORDS[role].toLowerCase()}. The link works once, until <Time at={expiresAt} zone={session.timeZone} />:
      </p>
      <p>
        <label for="invitation-link">Invitation link</label>
        <input id="invitation-link" type="text" readOnly value={link} size={80} />
      </p>
      <p class="admin-notice" role="status">
        {mail.kind === 'queued'
          ? `The link is on its way to ${mail.to}. It is shown here only this once.`
          : mail.kind === 'no_queue'
            ? 'No mail queue is configured, so the link was not mailed: pass it on by hand. It is shown here only this once.'
            : mail.kind === 'failed'
              ? 'The mail could not be queued: pass the link on by hand. It is shown here only this once.'
              : 'Pass the link on by hand. It is shown here only this once.'}
      </p>
      <p>
        <a href={USERS_PATH}>Back to the users</a>
      </p>
    </Layout>
  );
}
