// /admin/users and /admin/invite (docs/admin.md "Users, invitations and the audit log"):
//
//   GET  /admin/users            every user (config users marked) and the open invitations; the invite form
//   POST /admin/users/invite     name, role, email?: a single-use link, shown once in the answer (200), mailed when
//                                an address is given and the mail queue runs
//   POST /admin/users/role       name, role: not a config user's, never leaving no owner who can sign in
//   POST /admin/users/remove     name: not a config user, not yourself
//   POST /admin/users/withdraw   invitation (its token's SHA-256)
//   GET  /admin/invite?token=    (anonymous) the invited name and role, and a form to choose a password
//   POST /admin/invite           takes the invitation once, creates the user, then 303 to /admin/login
//
// The owners' pages sit behind the guard (owners only, CSRF); each change asks for the password again when it
// was given more than 15 minutes ago (../reauth.tsx), ends in a 303 (or the invitation's one-time page),
// and appends an audit event with the acting user and their network. A role change or a removal moves the user's
// generation on, so their sessions end at once on every replica.
import type { Answer } from '../../http/answer.js';
import type { RoutedRequest } from '../../http/route-table.js';
import type { Logger } from '../../kit/log.js';
import { isEmailAddress } from '../../kit/email-address.js';
import { safeReason } from '../../kit/safe-reason.js';
import type { Clock, MailMessage, RandomBytes } from '../../ports.js';
import { isRole, type Account, type AuditEvent, type Role } from '../accounts/account.js';
import type { Accounts } from '../accounts/accounts.js';
import type { AdminPage, AdminRequest, AdminRoute, AdminSession } from '../admin-pages.js';
import { htmlAnswer, redirectAnswer } from '../render.js';
import { MessagePage } from '../views/message-page.js';
import { createPasswordConfirmation, type PasswordAttempts } from '../reauth.js';
import { createInvitePages, type InvitePagesDeps } from './invite-pages.js';
import { createInvitationToken, INVITATION_MS, invitationHashOf, invitationLinkOf, invitationMail } from './invitations.js';
import { lookAlikeOf, nameProblem } from '../accounts/user-names.js';
import {
  INVITE_ACTION,
  InvitationCreatedPage,
  REMOVE_ACTION,
  ROLE_ACTION,
  USERS_PATH,
  UsersPage,
  WITHDRAW_ACTION,
  type InviteDraft,
  type InvitationCreatedPageProps,
} from './users-views.js';

/** Mailing an invitation's link: through the outgoing queue, when there is one. */
export interface InvitationMail {
  /** `mail.from`. */
  from: string;
  /** Queues `mail` (kind "invitation"); resolves once it is durably queued. */
  sendInvitation(mail: MailMessage): Promise<void>;
}

/** What the users pages and the invitation page are built on (the composition provides them). */
export interface UsersPagesDeps extends InvitePagesDeps {
  accounts: Accounts;
  clock: Clock;
  logger: Logger;
  randomBytes: RandomBytes;
  /**
   * Where /admin is reached from outside, without "/admin" ("https://example.com"): invitation links are built on
   * it. Without one, on the address the owner's request was sent to.
   */
  publicUrl?: string;
  /** Absent without a mail queue: the link must then be passed on by hand. */
  invitationMail?: InvitationMail;
  /** Whether `password` is `user`'s (on the sign-in's bounded pool of checks). */
  verifyPassword(user: string, password: string): Promise<boolean>;
  /** Marks the session of `request` (its cookie's id) as proved now: the session store's `confirm(id)`. */
  confirmSession(request: AdminRequest): Promise<void>;
  /** The sign-in throttle: a wrong password asked again counts there, for the user on every page and replica (../reauth.tsx). */
  passwordAttempts: PasswordAttempts;
  /** The network an audit event records: the client address, an IPv6 one as its /64. */
  networkOf(request: RoutedRequest): string;
}

const NOTICES: Record<string, string> = {
  role_changed: 'The role was changed; their sessions ended.',
  role_unchanged: 'The user has that role already; nothing changed.',
  removed: 'The user was removed; their sessions ended.',
  withdrawn: 'The invitation was withdrawn; its link no longer works.',
  missing_invitation: 'There was no such open invitation (it may have been accepted, withdrawn or expired).',
};

/** The owners' /admin/users routes and the anonymous /admin/invite. */
export function createUsersPages(deps: UsersPagesDeps): AdminRoute[] {
  const { accounts, clock, logger } = deps;
  const { store } = accounts;
  const withConfirmedPassword = createPasswordConfirmation(deps);

  const audit = (request: RoutedRequest, event: Omit<AuditEvent, 'at' | 'network'>) => store.audit({ at: clock(), ...event, network: deps.networkOf(request) });

  const listPage = async (session: AdminSession, status: number, extra: { notice?: string; problem?: string; draft?: InviteDraft }): Promise<Answer> => {
    const [users, invitations] = await Promise.all([accounts.list(), store.listInvitations(clock())]);
    return htmlAnswer(status, <UsersPage session={session} users={users} invitations={invitations} {...extra} />);
  };
  /** A change refused: the list again, with the reason, and what was typed into the invite form. */
  const refuse = (session: AdminSession, problem: string, draft?: InviteDraft) => listPage(session, 422, { problem, draft });
  const noSuchUser = (session: AdminSession) =>
    htmlAnswer(404, <MessagePage title="No such user" message="There is no user of that name (any more)." session={session} link={{ href: USERS_PATH, label: 'Back to the users' }} />);

  const list: AdminPage = (request, session) => {
    const key = new URLSearchParams(request.query).get('notice');
    return listPage(session, 200, { notice: key !== null && Object.hasOwn(NOTICES, key) ? NOTICES[key] : undefined });
  };

  /** Why `name` cannot be given to a new user, or undefined. */
  const takenProblem = async (name: string): Promise<string | undefined> => {
    if (accounts.isConfigUser(name)) return 'That name is a user of the configuration.';
    if ((await accounts.find(name)) || (await store.get(name))) return 'That name is taken by a user.';
    if ((await store.listInvitations(clock())).some((invitation) => invitation.name === name)) return 'That name has an open invitation already.';
    // A name that differs only by case or by look-alike letters from one in use (accounts/user-names.ts) is refused too.
    if (lookAlikeOf(name, (await accounts.list()).map((user) => user.name))) return 'That name differs from a user’s only by case or by look-alike letters.';
    if (lookAlikeOf(name, (await store.listInvitations(clock())).map((invitation) => invitation.name))) return 'That name differs from an open invitation’s only by case or by look-alike letters.';
    return undefined;
  };

  const invite: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'users', async () => {
      const fields = request.form!.fields;
      const draft = { name: fields.get('name') ?? '', role: fields.get('role') ?? '', email: (fields.get('email') ?? '').trim() };
      const problem =
        nameProblem(draft.name) ??
        (isRole(draft.role) ? undefined : 'Choose a role: owner, editor or author.') ??
        (draft.email === '' || isEmailAddress(draft.email) ? undefined : 'The email address is not one.') ??
        (await takenProblem(draft.name));
      if (problem) return refuse(session, problem, draft);
      const role = draft.role as Role;
      const now = clock();
      const token = createInvitationToken(deps.randomBytes);
      const expiresAt = now + INVITATION_MS;
      const stored = await store.addInvitation({
        tokenHash: invitationHashOf(token),
        name: draft.name,
        role,
        ...(draft.email === '' ? {} : { email: draft.email }),
        createdBy: session.user,
        createdAt: now,
        expiresAt,
      });
      if (!stored) throw new Error('an invitation with the same token exists');
      await audit(request, { user: session.user, event: 'user_invited', subject: draft.name });
      const publicUrl = deps.publicUrl ?? requestOriginOf(request);
      const link = invitationLinkOf(publicUrl, token);
      let mail: InvitationCreatedPageProps['mail'] = { kind: 'none' };
      if (draft.email !== '') {
        if (!deps.invitationMail) mail = { kind: 'no_queue' };
        else {
          try {
            const message = invitationMail({ from: deps.invitationMail.from, to: draft.email, invitedBy: session.user, name: draft.name, role, link, publicUrl, expiresAt });
            await deps.invitationMail.sendInvitation(message);
            mail = { kind: 'queued', to: draft.email };
          } catch (error) {
            logger.error({ event: 'admin_invitation_not_queued', user: session.user, subject: draft.name, reason: safeReason(error) }, 'invitation mail not queued');
            mail = { kind: 'failed' };
          }
        }
      }
      logger.info({ event: 'admin_user_invited', user: session.user, subject: draft.name, role, mailed: mail.kind === 'queued' }, 'user invited');
      // The link is in this answer only: never in a redirect's URL, never stored.
      return htmlAnswer(200, <InvitationCreatedPage session={session} name={draft.name} role={role} link={link} expiresAt={expiresAt} mail={mail} />);
    });

  /** Whether an owner who can sign in remains. */
  const hasOwner = async (): Promise<boolean> => (await accounts.list()).some((account) => account.role === 'owner' && account.passwordHash !== '');

  /** Whether an owner who can sign in besides `target` exists. */
  const otherOwner = async (target: Account): Promise<boolean> =>
    (await accounts.list()).some((account) => account.name !== target.name && account.role === 'owner' && account.passwordHash !== '');

  const changeRole: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'users', async () => {
      const fields = request.form!.fields;
      const name = fields.get('name') ?? '';
      const role = fields.get('role') ?? '';
      const target = await accounts.find(name);
      if (!target) return noSuchUser(session);
      if (target.fromConfig) return refuse(session, `${name} is set in the configuration: change it there.`);
      if (!isRole(role)) return refuse(session, 'Choose a role: owner, editor or author.');
      if (target.role === role) return redirectAnswer(`${USERS_PATH}?notice=role_unchanged`);
      if (target.role === 'owner' && !(await otherOwner(target))) {
        return refuse(session, name === session.user ? 'You are the last owner: make someone else an owner first.' : `${name} is the last owner: make someone else an owner first.`);
      }
      const changed = await store.update(name, (current) => (current?.role && current.passwordHash ? { ...current, role, generation: current.generation + 1 } : undefined));
      if (!changed) return noSuchUser(session);
      // Two owners demoting each other at the same moment could each have seen the other: one of them goes back.
      if (!(await hasOwner())) {
        await store.update(name, (current) => (current?.role && current.passwordHash ? { ...current, role: 'owner' } : undefined));
        return htmlAnswer(
          409,
          <MessagePage title="Role not changed" message={`${name} stays an owner: no other owner was left at the same moment.`} session={session} link={{ href: USERS_PATH, label: 'Back to the users' }} />,
        );
      }
      await audit(request, { user: session.user, event: 'role_changed', subject: name });
      logger.info({ event: 'admin_role_changed', user: session.user, subject: name, role }, 'user role changed');
      return redirectAnswer(`${USERS_PATH}?notice=role_changed`);
    });

  const remove: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'users', async () => {
      const name = request.form!.fields.get('name') ?? '';
      const target = await accounts.find(name);
      if (!target) return noSuchUser(session);
      if (target.fromConfig) return refuse(session, `${name} is set in the configuration: remove them there.`);
      if (name === session.user) return refuse(session, 'You cannot remove yourself.');
      // Their sessions end first (on every replica at once), then the record goes.
      await store.update(name, (current) => current && { ...current, generation: current.generation + 1 });
      if (!(await store.remove(name))) return noSuchUser(session);
      await audit(request, { user: session.user, event: 'user_removed', subject: name });
      logger.info({ event: 'admin_user_removed', user: session.user, subject: name }, 'user removed');
      return redirectAnswer(`${USERS_PATH}?notice=removed`);
    });

  const withdraw: AdminPage = (request, session) =>
    withConfirmedPassword(request, session, 'users', async () => {
      const tokenHash = request.form!.fields.get('invitation') ?? '';
      const invitation = (await store.listInvitations(clock())).find((open) => open.tokenHash === tokenHash);
      if (!invitation || !(await store.dropInvitation(tokenHash))) return redirectAnswer(`${USERS_PATH}?notice=missing_invitation`);
      await audit(request, { user: session.user, event: 'invitation_withdrawn', subject: invitation.name });
      logger.info({ event: 'admin_invitation_withdrawn', user: session.user, subject: invitation.name }, 'invitation withdrawn');
      return redirectAnswer(`${USERS_PATH}?notice=withdrawn`);
    });

  return [
    { path: USERS_PATH, methods: { GET: list } },
    { path: INVITE_ACTION, methods: { POST: invite } },
    { path: ROLE_ACTION, methods: { POST: changeRole } },
    { path: REMOVE_ACTION, methods: { POST: remove } },
    { path: WITHDRAW_ACTION, methods: { POST: withdraw } },
    ...createInvitePages(deps),
  ];
}

/** The origin the request was sent to, when no public address is configured: the browser's Origin, else its Host. */
function requestOriginOf(request: RoutedRequest): string {
  const { origin, host } = request.raw.headers;
  if (typeof origin === 'string' && /^https?:\/\/[^/]+$/.test(origin)) return origin;
  return `http://${host ?? 'localhost'}`;
}
