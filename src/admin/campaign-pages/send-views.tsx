// "Send to subscribers" (docs/admin.md "Sending a post"): the page of one published post, with the newsletter list
// to send to (named by its form's path, or by its id for a list without a form), earlier campaigns of the post, a test send and "Continue"; then the confirmation step that names
// the number of subscribers and creates the campaign. Every form works without script.
import type { CampaignRequest } from '../../newsletter/campaigns/campaign.js';
import type { AdminSession } from '../sessions.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';
import { Time } from '../views/time.js';
import type { TestOutcomeNote } from './test-outcomes.js';

/** The post, language and form a page is about: carried by every link and form of these pages. */
export interface SendTarget {
  slug: string;
  lang: string;
  form: string;
}

export interface EarlierCampaign {
  request: CampaignRequest;
  finished: boolean;
}

/** The address of the send page (or the confirmation, with `path`) for `target`. */
export function sendPath(target: SendTarget, extra: Record<string, string> = {}, path = '/admin/newsletter/send'): string {
  return `${path}?${new URLSearchParams({ post: target.slug, lang: target.lang, form: target.form, ...extra }).toString()}`;
}

function TargetFields({ target }: { target: SendTarget }) {
  return (
    <>
      <input type="hidden" name="post" value={target.slug} />
      <input type="hidden" name="lang" value={target.lang} />
      <input type="hidden" name="form" value={target.form} />
    </>
  );
}

function EarlierList({ earlier, zone }: { earlier: readonly EarlierCampaign[]; zone: string }) {
  return (
    <ul>
      {earlier.map(({ request, finished }) => (
        <li key={request.id}>
          <a href={`/admin/campaigns/${request.id}`}>Campaign {request.id}</a>, created <Time at={request.created_at} zone={zone} />, to {request.recipients}{' '}
          subscribers{finished ? '' : ' (still sending)'}
        </li>
      ))}
    </ul>
  );
}

export interface SendPageProps {
  session: AdminSession;
  title: string;
  target: SendTarget;
  /** Every newsletter list, by its campaign key (a form's path or a list id), with its confirmed subscribers now. */
  forms: ReadonlyArray<{ path: string; subscribers: number }>;
  earlier: readonly EarlierCampaign[];
  test?: TestOutcomeNote;
}

export function SendPage({ session, title, target, forms, earlier, test }: SendPageProps) {
  const chosen = forms.find((form) => form.path === target.form);
  return (
    <Layout title={`Send "${title}"`} session={session} section="posts">
      <h1>Send to subscribers</h1>
      {test && (
        <p class={test.ok ? 'admin-notice' : 'admin-problem'} role="status">
          {test.text} <span class="admin-hint">{test.detail}</span>
        </p>
      )}
      <dl class="admin-facts">
        <dt>Post</dt>
        <dd>
          {title} ({target.slug})
        </dd>
        <dt>Language</dt>
        <dd>{target.lang}</dd>
        {forms.length === 1 && (
          <>
            <dt>Newsletter list</dt>
            <dd>
              {target.form}: {chosen?.subscribers ?? 0} confirmed subscribers
            </dd>
          </>
        )}
      </dl>
      {forms.length > 1 && (
        <form method="get" action="/admin/newsletter/send" class="admin-form admin-actions">
          <input type="hidden" name="post" value={target.slug} />
          <input type="hidden" name="lang" value={target.lang} />
          <div>
            <label for="send-form">Newsletter list</label>
            <select id="send-form" name="form">
              {forms.map((form) => (
                <option key={form.path} value={form.path} selected={form.path === target.form}>
                  {form.path} ({form.subscribers} subscribers)
                </option>
              ))}
            </select>
          </div>
          <button type="submit">Choose this list</button>
        </form>
      )}
      <h2>Sent before</h2>
      {earlier.length === 0 ? (
        <p>This post was not sent to {target.form} in this language yet.</p>
      ) : (
        <>
          <p>This post was sent to {target.form} in this language before. Sending it again needs "Send again" ticked on the next step.</p>
          <EarlierList earlier={earlier} zone={session.timeZone} />
        </>
      )}
      <h2>Send a test first</h2>
      <form method="post" action="/admin/newsletter/test" class="admin-form admin-actions">
        <CsrfField session={session} />
        <TargetFields target={target} />
        <div>
          <label for="test-address">Test address</label>
          <input type="email" id="test-address" name="address" required autocomplete="email" />
          <span class="admin-hint">Gets exactly the mail a subscriber gets, now, with an unsubscribe link for this address.</span>
        </div>
        <button type="submit">Send test</button>
      </form>
      <h2>Send to every subscriber</h2>
      <form method="get" action="/admin/newsletter/confirm" class="admin-actions">
        <TargetFields target={target} />
        <button type="submit">Continue</button>
      </form>
      <p>
        <a href="/admin/posts">Back to the posts</a>
      </p>
    </Layout>
  );
}

export interface ConfirmPageProps {
  session: AdminSession;
  title: string;
  target: SendTarget;
  subscribers: number;
  earlier: readonly EarlierCampaign[];
}

export function ConfirmPage({ session, title, target, subscribers, earlier }: ConfirmPageProps) {
  const sending = earlier.find((entry) => !entry.finished);
  const back = sendPath(target);
  return (
    <Layout title="Confirm the send" session={session} section="posts">
      <h1>Confirm the send</h1>
      {subscribers === 0 ? (
        <p class="admin-problem">{target.form} has no confirmed subscribers: there is nothing to send.</p>
      ) : sending ? (
        <p class="admin-problem">
          Campaign <a href={`/admin/campaigns/${sending.request.id}`}>{sending.request.id}</a> is still sending this post to {target.form}. Wait until it has finished.
        </p>
      ) : (
        <form method="post" action="/admin/newsletter/start" class="admin-form">
          <p>
            Send "{title}" ({target.lang}) to {subscribers} subscribers of {target.form}?
          </p>
          <CsrfField session={session} />
          <TargetFields target={target} />
          {earlier.length > 0 && (
            <div class="admin-check">
              <p>It was sent to them before:</p>
              <EarlierList earlier={earlier} zone={session.timeZone} />
              <input type="checkbox" id="send-again" name="resend" value="on" /> <label for="send-again">Send again</label>
            </div>
          )}
          <p class="admin-actions">
            <button type="submit">Send now</button>
          </p>
        </form>
      )}
      <p>
        <a href={back}>Back</a>
      </p>
    </Layout>
  );
}
