// /admin/invite (docs/admin.md "Users, invitations and the audit log"), answered without a session: the token in
// the link is what lets the person in. GET shows the invited name and role and asks for a password twice; POST
// takes the invitation once (of any number of submissions at the same moment exactly one gets it), creates the
// user with the password's hash and sends the browser to sign in. An unknown, used or expired token gets one
// 410 page. The token is never logged (the request line holds the path only, not the query).
import type { Answer } from '../../http/answer.js';
import type { RoutedRequest } from '../../http/route-table.js';
import type { Logger } from '../../kit/log.js';
import { MIN_PASSWORD_LENGTH } from '../../kit/password-hash.js';
import type { Clock } from '../../ports.js';
import type { Invitation } from '../accounts/account.js';
import type { Accounts } from '../accounts/accounts.js';
import type { AdminRoute, AnonymousPage } from '../admin-pages.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { Layout } from '../views/layout.js';
import { MessagePage } from '../views/message-page.js';
import { invitationHashOf, isInvitationToken, utcMinuteOf } from './invitations.js';

export const INVITE_PATH = '/admin/invite';

/** A longer password is not hashed. */
const MAX_PASSWORD_LENGTH = 1024;

export interface InvitePagesDeps {
  accounts: Accounts;
  clock: Clock;
  logger: Logger;
  /** The stored hash of a new user's password (`scrypt$...`). */
  hashPassword(password: string): Promise<string>;
  /** The network an audit event records. */
  networkOf(request: RoutedRequest): string;
}

export function createInvitePages(deps: InvitePagesDeps): AdminRoute[] {
  const { accounts, clock, logger } = deps;
  const { store } = accounts;

  /** The open invitation of `token`, or undefined. */
  const openInvitation = async (token: string): Promise<Invitation | undefined> => {
    if (!isInvitationToken(token)) return undefined;
    const tokenHash = invitationHashOf(token);
    return (await store.listInvitations(clock())).find((invitation) => invitation.tokenHash === tokenHash);
  };

  const show: AnonymousPage = async (request) => {
    const token = new URLSearchParams(request.query).get('token') ?? '';
    const invitation = await openInvitation(token);
    if (!invitation) return gone();
    return htmlAnswer(200, <AcceptPage invitation={invitation} token={token} />);
  };

  const accept: AnonymousPage = async (request) => {
    const fields = request.form?.fields ?? new URLSearchParams();
    const token = fields.get('token') ?? '';
    const password = fields.get('password') ?? '';
    const again = fields.get('password_again') ?? '';
    const invitation = await openInvitation(token);
    if (!invitation) return gone();
    const problem =
      password.length < MIN_PASSWORD_LENGTH
        ? `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`
        : password.length > MAX_PASSWORD_LENGTH
          ? `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`
          : password !== again
            ? 'The two passwords are not the same.'
            : undefined;
    if (problem) return htmlAnswer(422, <AcceptPage invitation={invitation} token={token} problem={problem} />);
    const passwordHash = await deps.hashPassword(password);
    const now = clock();
    const taken = await store.takeInvitation(invitation.tokenHash, now);
    if (!taken) return gone();
    // A new user's generation starts at the time they were created: a session left by an earlier, removed user
    // of the same name never matches it.
    const created =
      !accounts.isConfigUser(taken.name) &&
      (await store.create({
        name: taken.name,
        role: taken.role,
        ...(taken.email === undefined ? {} : { email: taken.email }),
        passwordHash,
        generation: now,
        passkeys: [],
        createdAt: now,
      }));
    if (!created) {
      logger.warn({ event: 'admin_invitation_name_taken', subject: taken.name }, 'invitation taken, but its name was taken meanwhile');
      return htmlAnswer(
        409,
        <MessagePage title="Name taken" message={`The name ${taken.name} was taken by another user meanwhile, and the invitation is used up. Ask for a new invitation.`} />,
      );
    }
    await store.audit({ at: now, user: taken.name, event: 'invitation_accepted', subject: taken.name, network: deps.networkOf(request) });
    logger.info({ event: 'admin_invitation_accepted', user: taken.name, role: taken.role }, 'invitation accepted');
    return redirectAnswer('/admin/login');
  };

  return [{ path: INVITE_PATH, methods: {}, anonymous: { GET: show, POST: accept } }];
}

/** Unknown, used, withdrawn or expired: one answer for all, so that none can be told apart. */
function gone(): Answer {
  return htmlAnswer(
    410,
    <MessagePage title="Invitation not valid" message="This invitation link is unknown, used or expired. Ask the person who invited you for a new one." />,
  );
}

function AcceptPage({ invitation, token, problem }: { invitation: Invitation; token: string; problem?: string }) {
  return (
    <Layout title="Accept the invitation">
      <h1>Welcome, {invitation.name}</h1>
      <p>
        {invitation.createdBy} invited you to this Postbox admin as <strong>{invitation.name}</strong>, with the role <strong>{invitation.role}</strong>. The invitation is
        valid until {utcMinuteOf(invitation.expiresAt)}.
      </p>
      {problem && (
        <p class="admin-problem" role="alert">
          {problem}
        </p>
      )}
      <form method="post" action={INVITE_PATH} class="admin-form">
        <input type="hidden" name="token" value={token} />
        <input type="text" name="username" autocomplete="username" value={invitation.name} readOnly hidden />
        <p>
          <label for="new-password">Choose a password (at least {MIN_PASSWORD_LENGTH} characters)</label>
          <input id="new-password" name="password" type="password" autocomplete="new-password" minLength={MIN_PASSWORD_LENGTH} required autofocus />
        </p>
        <p>
          <label for="new-password-again">The password again</label>
          <input id="new-password-again" name="password_again" type="password" autocomplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
        </p>
        <p>
          <button type="submit">Create my account</button>
        </p>
      </form>
    </Layout>
  );
}
