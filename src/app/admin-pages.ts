// The pages /admin serves for a configuration (docs/admin.md), built on the core: the dashboard, subscribers and
// failed mail; the posts pages over the blog's content (or the placeholder without a blog); "Send to subscribers"
// when a newsletter form can send through the queue; the campaigns, the inbox and the suppression list; the users, invitations and the
// audit log.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Backend } from '../adapters/backend.js';
import type { Role } from '../admin/accounts/account.js';
import type { Accounts } from '../admin/accounts/accounts.js';
import { EDITORS, EVERY_ROLE } from '../admin/accounts/roles.js';
import { createAccountPages as createOwnAccountPages } from '../admin/account-pages/account-pages.js';
import type { AdminRequest, AdminRoute } from '../admin/admin-pages.js';
import { createAnalyticsPages } from '../admin/analytics-pages/analytics-pages.js';
import { createAuditPages } from '../admin/audit-pages/audit-pages.js';
import { createBouncesPages } from '../admin/bounces-pages/bounces-pages.js';
import { createFollowersPages } from '../admin/followers-pages/followers-pages.js';
import { createCommentsPages } from '../admin/comments-pages/comments-pages.js';
import { createPostAuthorFinder } from '../comments/commented-post.js';
import { createCommentIdMaker } from '../comments/comment-id.js';
import type { CommentMail } from '../comments/comment-mail.js';
import { createCommentRenderer } from '../comments/render-comment.js';
import { createCampaignPages } from '../admin/campaign-pages/campaign-pages.js';
import { createSendPages } from '../admin/campaign-pages/send-pages.js';
import { createAutomationPages } from '../admin/campaign-pages/automation-pages.js';
import type { PostAutomations } from '../newsletter/automations/post-automations.js';
import { createDashboardPages } from '../admin/dashboard-pages/dashboard-pages.js';
import { createInboxPages, type InboxDeps } from '../admin/inbox-pages/inbox-pages.js';
import { createAttachmentStoreOf, takesAttachments, withFilesDiscarded } from './attachment-storage.js';
import { createSpamPages } from '../admin/spam-pages/spam-pages.js';
import { createPasskeyPages } from '../admin/passkeys/passkey-pages.js';
import type { NewsletterSending } from '../admin/post-pages/post-list-page.js';
import { createEditorPages, withUnsavedDrafts } from '../admin/post-pages/editor-pages.js';
import { createPostPages } from '../admin/post-pages/post-pages.js';
import { createHistoryPages } from '../admin/history-pages/history-pages.js';
import type { PostHistory } from '../admin/history-pages/post-history.js';
import type { PostChangeLog } from '../admin/posts/post-changes.js';
import { publicPostLinksOf } from '../admin/post-pages/post-list-query.js';
import { createPreviewRenderer } from '../admin/post-pages/preview.js';
import { createPostFiles } from '../admin/posts/post-files.js';
import { TRASH_FOLDER } from '../admin/posts/trash.js';
import { createUsersPages, type InvitationMail } from '../admin/users-pages/users-pages.js';
import { createPlaceholderPages } from '../admin/views/placeholder-pages.js';
import type { BlogContent } from '../blog/blog-content.js';
import { createMarkdownTools } from '../blog/content/markdown.js';
import type { TestSendOutcome } from './campaign-test-send.js';
import type { CampaignPlan } from '../newsletter/campaigns/campaign-plan.js';
import type { Config, NewsletterForm } from '../config/config.js';
import { createRateLimitKey } from '../forms/rules/rate-limit-key.js';
import type { RoutedRequest } from '../http/route-table.js';
import { hashPassword, SALT_BYTES } from '../kit/password-hash.js';
import type { Subscriber } from '../newsletter/index.js';
import type { Logger } from '../kit/log.js';
import type { Clock } from '../ports.js';
import type { MailCore } from './mail-core.js';
import { composeSpamRelease } from './spam-release.js';
import { createMediaStoreOf, createStoredMediaReaderOf } from './media-storage.js';

/** What /admin's pages are built on. */
export interface AdminPagesCore {
  backend: Backend;
  /** The blog's posts, with [blog] and [site]. */
  content?: BlogContent;
  /** The running forms in this process, with [[forms]] and [mail]. */
  forms?: MailCore;
  /** The on_publish and digest automations running in this process (docs/newsletter.md "Automations"). */
  automations?: PostAutomations;
  /** "Send a test" of a campaign: one mail now, without the queue. */
  sendTest?(plan: Pick<CampaignPlan, 'list' | 'post' | 'body'>, address: string): Promise<TestSendOutcome>;
  logger: Logger;
  clock: Clock;
  /** The users of /admin: the config's `[admin] users` and the account store's. */
  accounts: Accounts;
  /** Whether `password` is `user`'s, checked on the sign-in's bounded pool (the password asked again before a change). */
  verifyPassword(user: string, password: string): Promise<boolean>;
  /** Marks the session of `request` (the id in its cookie) as proved now: the session store's `confirm(id)`. */
  confirmSession(request: AdminRequest): Promise<void>;
  /** Ends the session of `request` and starts one in `user`'s generation now: its Set-Cookie (after a new password). */
  renewSession(request: AdminRequest, user: string): Promise<Record<string, string> | undefined>;
  /** A new user's password hash; by default scrypt with the default parameters and a random salt. */
  hashPassword?(password: string): Promise<string>;
  /** The network an audit event records; by default the client address, an IPv6 one as its /64. */
  networkOf?(request: RoutedRequest): string;
  /** [blog.git] (app/git-content.ts): each post change recorded as a commit, and the posts' history. */
  git?: { changes: PostChangeLog; history: PostHistory };
  /** Reply notifications (docs/comments.md), with [blog.comments], [mail] and its queue. */
  commentMail?: CommentMail;
  /** Whether [analytics] counts; /admin/analytics says so when it does not (docs/analytics.md). */
  analytics?: boolean;
}

/** Whether posts can be sent from /admin: a newsletter form, and campaigns go through the mail queue. */
function newsletterSendingOf(config: Config): NewsletterSending | undefined {
  if (!config.mail || !config.forms.some((form) => form.type === 'newsletter')) return undefined;
  return config.mail.queue ? 'ready' : 'needs_queue';
}

/** The dashboard, the posts pages (or the placeholder when there is no blog), the send pages, campaigns and the inbox. */
export function createAdminPages(config: Config, core: AdminPagesCore): readonly AdminRoute[] {
  const { backend, content, forms, logger, clock } = core;
  // The running newsletter keeps its list in memory (files): "Remove" and the lists go through it when it runs here.
  const readSubscribers = (form: NewsletterForm): Promise<Subscriber[]> => (forms ? forms.newsletter.listSubscribers(form) : backend.newsletter.listSubscribers(form));
  // Listed first: the first page listed for an exact path answers it, and the dashboard answers /admin.
  const dashboardPages = createDashboardPages(
    {
      ...backend.dashboard,
      forms: config.forms,
      clock,
      listVersions: () => content?.listAllVersions(),
      readings: () => forms?.readings,
      newsletter: () => forms?.newsletter,
      // The mail queue, or the activities' own queue without it (docs/activitypub.md "Delivery").
      queue: config.mail?.queue || config.blog?.activitypub.enabled ? backend.queue : undefined,
      campaigns: backend.campaigns,
      spam: backend.spam,
      countWaitingComments: config.blog?.comments.enabled ? async () => (await backend.comments.listAll()).filter((comment) => comment.status === 'waiting').length : undefined,
    },
    { readSubscribers, logger },
  );
  // Campaigns are the editors' as well as the owners'; the inbox, like the dashboard, the owners' alone.
  const sharedPages = [
    ...forRoles(
      EDITORS,
      createCampaignPages({ store: backend.campaigns, resume: forms?.campaigns ? (id, by) => forms.campaigns!.resume(id, by) : undefined, logger }),
    ),
    ...forRoles(EDITORS, createAutomationPages({ automations: core.automations, campaigns: backend.campaigns, logger })),
    ...createInboxPages({ forms: config.forms, archives: backend.archiveReader, spam: backend.spam, logger, ...attachmentPartsOf(config) }),
    // Each form's quarantine and its "Not spam", which delivers through the mail core when it runs in this process.
    ...createSpamPages({ forms: config.forms, store: takesAttachments(config) ? withFilesDiscarded(backend.spam, createAttachmentStoreOf(config)) : backend.spam, clock, release: forms ? composeSpamRelease(config, backend, forms, logger, clock) : undefined }),
    // The suppression list (docs/bounces.md "Suppression"), like the inbox the owners' alone.
    ...createBouncesPages({ store: backend.suppressions, logger }),
    // Who follows the blog on the fediverse (docs/activitypub.md "Followers"), like the subscribers the owners' alone.
    ...createFollowersPages({ store: config.blog?.activitypub.enabled ? backend.activitypub : undefined }),
    ...createAccountPages(config, core),
    ...createOwnPasskeyPages(config, core),
    // Shown with [analytics] off too, saying so: its section is in every editor's navigation.
    ...forRoles(EDITORS, createAnalyticsPages({ store: backend.analytics, clock, enabled: core.analytics === true })),
  ];
  if (!content || !config.blog || !config.site || !config.admin) return [...dashboardPages, ...createPlaceholderPages(), ...sharedPages];
  const contentDir = config.blog.content_dir;
  const sending = newsletterSendingOf(config);
  // One PostFiles and one preview renderer for the posts pages and the editor's script routes: their writes take turns.
  const media = createMediaStoreOf(config);
  const posts = createPostFiles({ contentDir, trashDir: path.join(config.data_dir, TRASH_FOLDER), clock, defaultLanguage: config.site.language, changes: core.git?.changes, media });
  const renderPreview = createPreviewRenderer({
    contentDir,
    render: createMarkdownTools({ iframeHosts: config.blog.allow_iframes_from }).render,
    maxImageBytes: config.admin.max_upload_bytes,
    readStoredImage: media && createStoredMediaReaderOf(config, media),
  });
  const postPages = [
    ...withUnsavedDrafts(
      createPostPages({
        posts,
        listVersions: () => content.listAllVersions(),
        renderPreview,
        maxUploadBytes: config.admin.max_upload_bytes,
        sending,
        links: publicPostLinksOf(config.site, config.blog),
        history: core.git !== undefined,
        mediaInStorage: media !== undefined,
        logger,
      }),
      backend.drafts,
      logger,
      clock,
    ),
    ...createEditorPages({ posts, renderPreview, drafts: backend.drafts, maxUploadBytes: config.admin.max_upload_bytes, clock, logger }),
    ...(core.git ? createHistoryPages({ posts, history: core.git.history, logger }) : []),
    ...createCommentsPages({
      store: config.blog.comments.enabled ? backend.comments : undefined,
      authorOf: createPostAuthorFinder(content.current),
      audit: (request, event) => core.accounts.store.audit({ at: clock(), ...event, network: networkOf(core, request) }),
      afterPublish: core.commentMail && ((comment) => core.commentMail!.afterPublish(comment)),
      writing: { render: createCommentRenderer(), createId: createCommentIdMaker(clock), clock, siteAuthor: { name: config.site.title, url: config.site.base_url } },
    }),
  ];
  if (sending !== 'ready' || !core.sendTest) return [...dashboardPages, ...postPages, ...sharedPages];
  const site = config.site;
  const sendPages = createSendPages({
    sources: {
      lists: config.newsletter.lists,
      findPost: (slug, lang) => content.findPublishedPost(slug, lang),
      readSubscribers: (log) => (forms ? forms.newsletter.listSubscribers(log) : backend.newsletter.listSubscribers(log)),
      store: backend.campaigns,
      site: { title: site.title, baseUrl: site.base_url },
    },
    sendTest: core.sendTest,
    wakeRunner: () => forms?.campaigns?.wake(),
    clock,
    randomHex: () => randomBytes(2).toString('hex'),
    logger,
    verifyPassword: core.verifyPassword,
    confirmSession: core.confirmSession,
    passwordAttempts: core.backend.admin.throttle,
  });
  return [...dashboardPages, ...postPages, ...forRoles(EDITORS, sendPages), ...sharedPages];
}

/** `routes` opened to `roles` (docs/admin.md "Users and roles"). */
function forRoles(roles: readonly Role[], routes: readonly AdminRoute[]): AdminRoute[] {
  return routes.map((route) => ({ ...route, roles }));
}

/** /admin/account/passkeys: every person's own passkeys (their challenges signed under the throttle's shared key). */
function createOwnPasskeyPages(config: Config, core: AdminPagesCore): AdminRoute[] {
  const networkOfAddress = createRateLimitKey(64);
  return createPasskeyPages({
    accounts: core.accounts,
    clock: core.clock,
    logger: core.logger,
    secureCookies: config.admin?.secure_cookies ?? true,
    deviceKey: () => core.backend.admin.throttle.deviceKey(),
    verifyPassword: (user, password) => core.verifyPassword(user, password),
    confirmSession: (request) => core.confirmSession(request),
    passwordAttempts: core.backend.admin.throttle,
    networkOf: core.networkOf ?? ((request) => networkOfAddress(request.clientAddress)),
  });
}

/** Where /admin is reached from outside: the blog's site when it serves /admin, else the forms service's public_url. */
function publicAdminUrlOf(config: Config): string | undefined {
  const url = config.admin?.public_url;
  return url === undefined || url === '' ? undefined : url;
}

/** /admin/users, /admin/invite and /admin/audit (owners only, but the invitation page, which needs no session). */
function createAccountPages(config: Config, core: AdminPagesCore): AdminRoute[] {
  const { accounts, forms, logger, clock } = core;
  const queue = config.mail && forms?.queue;
  const invitationMail: InvitationMail | undefined =
    config.mail && queue ? { from: config.mail.from, sendInvitation: (mail) => queue.enqueue([{ channel: 'mail', form: '', kind: 'invitation', mail }]) } : undefined;
  const networkOfAddress = createRateLimitKey(64);
  return [
    ...createUsersPages({
      accounts,
      clock,
      logger,
      randomBytes,
      publicUrl: publicAdminUrlOf(config),
      invitationMail,
      verifyPassword: (user, password) => core.verifyPassword(user, password),
      confirmSession: (request) => core.confirmSession(request),
      passwordAttempts: core.backend.admin.throttle,
      hashPassword: core.hashPassword ?? ((password) => hashPassword(password, randomBytes(SALT_BYTES))),
      networkOf: core.networkOf ?? ((request) => networkOfAddress(request.clientAddress)),
    }),
    ...createAuditPages({ store: accounts.store }),
    // /admin/account: every person's own password, second factor and sessions.
    ...forRoles(
      EVERY_ROLE,
      createOwnAccountPages({
        accounts,
        clock,
        logger,
        randomBytes,
        verifyPassword: (user, password) => core.verifyPassword(user, password),
        confirmSession: (request) => core.confirmSession(request),
        passwordAttempts: core.backend.admin.throttle,
        renewSession: (request, user) => core.renewSession(request, user),
        hashPassword: core.hashPassword ?? ((password) => hashPassword(password, randomBytes(SALT_BYTES))),
        networkOf: core.networkOf ?? ((request) => networkOfAddress(request.clientAddress)),
        sharedKey: () => core.backend.admin.throttle.deviceKey(),
        siteName: siteNameOf(config),
        secureCookies: config.admin?.secure_cookies ?? true,
      }),
    ),
  ];
}

/** What an authenticator app names this admin by: the site's title, else the host /admin is reached at. */
function siteNameOf(config: Config): string | undefined {
  if (config.site?.title) return config.site.title;
  const url = publicAdminUrlOf(config);
  try {
    return url === undefined ? undefined : new URL(url).host;
  } catch {
    return undefined;
  }
}

/** The network an audit event of `request` records (AdminPagesCore.networkOf). */
function networkOf(core: AdminPagesCore, request: RoutedRequest): string {
  return core.networkOf ? core.networkOf(request) : createRateLimitKey(64)(request.clientAddress);
}

/** Reads and deletes the files of inbox entries (docs/attachments.md "In /admin") when a form takes files. */
function attachmentPartsOf(config: Config): Pick<InboxDeps, 'removeAttachments' | 'readAttachment'> {
  if (!takesAttachments(config)) return {};
  const files = createAttachmentStoreOf(config);
  return {
    async removeAttachments(ids) {
      for (const id of ids) await files.remove(id).catch(() => {});
    },
    readAttachment: (id) => files.read(id),
  };
}
