// The pages of /admin/account: the signed-in person's password, TOTP second factor and sessions; the TOTP set-up
// with its secret and QR code; the recovery codes, shown once.
import { renderSVG } from 'uqr';
import { MIN_PASSWORD_LENGTH } from '../../kit/password-hash.js';
import type { Account } from '../accounts/account.js';
import type { AdminSession } from '../sessions.js';
import { Time } from '../views/time.js';
import { CsrfField } from '../views/csrf-field.js';
import { Layout } from '../views/layout.js';

export const ACCOUNT_PATH = '/admin/account';
export const PASSWORD_ACTION = '/admin/account/password';
export const SIGN_OUT_EVERYWHERE_ACTION = '/admin/account/sign-out-everywhere';
export const FORGET_DEVICES_ACTION = '/admin/account/forget-devices';
export const TOTP_SETUP_ACTION = '/admin/account/totp/setup';
export const TOTP_ENABLE_ACTION = '/admin/account/totp/enable';
export const TOTP_DISABLE_ACTION = '/admin/account/totp/disable';

const MAX_PASSWORD_LENGTH = 1024;


function Problem({ problem }: { problem?: string }) {
  return problem ? (
    <p class="admin-problem" role="alert">
      {problem}
    </p>
  ) : null;
}

export interface AccountPageProps {
  session: AdminSession;
  account: Account;
  notice?: string;
  /** Why the last change was refused, shown above everything. */
  problem?: string;
}

export function AccountPage({ session, account, notice, problem }: AccountPageProps) {
  return (
    <Layout title="Your account" session={session} section="account">
      <h1>Your account</h1>
      <Problem problem={problem} />
      {notice && (
        <p class="admin-notice" role="status">
          {notice}
        </p>
      )}
      <p>
        Signed in as <strong>{account.name}</strong>, {account.role}
        {account.fromConfig ? ', set in the configuration' : ''}.
      </p>

      <h2>Password</h2>
      {account.fromConfig ? (
        <p>
          Your password is set in the configuration (<code>[admin] users</code>): change its hash there, made with <code>postbox hash-password</code>, and restart.
        </p>
      ) : (
        <form method="post" action={PASSWORD_ACTION} class="admin-form">
          <CsrfField session={session} />
          <input type="text" name="username" autocomplete="username" value={account.name} readOnly hidden />
          <p>
            <label for="current-password">Current password</label>
            <input id="current-password" name="current_password" type="password" autocomplete="current-password" required />
          </p>
          <p>
            <label for="new-password">New password (at least {MIN_PASSWORD_LENGTH} characters)</label>
            <input id="new-password" name="new_password" type="password" autocomplete="new-password" minLength={MIN_PASSWORD_LENGTH} maxLength={MAX_PASSWORD_LENGTH} required />
          </p>
          <p>
            <label for="new-password-again">The new password again</label>
            <input id="new-password-again" name="new_password_again" type="password" autocomplete="new-password" minLength={MIN_PASSWORD_LENGTH} maxLength={MAX_PASSWORD_LENGTH} required />
          </p>
          <p>
            <button type="submit">Change the password</button>
          </p>
          <p>Changing it signs you out everywhere else; you stay signed in here.</p>
        </form>
      )}

      <h2>Second factor</h2>
      {account.totp ? (
        <>
          <p>
            An authenticator app (TOTP) is asked for at every sign-in with your password, since <Time at={account.totp.enabledAt} zone={session.timeZone} />. Recovery codes left:{' '}
            {account.totp.recoveryCodeHashes.length} of 10.
          </p>
          <form method="post" action={TOTP_DISABLE_ACTION} class="admin-form">
            <CsrfField session={session} />
            <button type="submit">Turn off the authenticator app</button>
          </form>
        </>
      ) : (
        <>
          <p>With an authenticator app, signing in with your password also asks for the 6-digit code the app shows: a stolen password alone is not enough.</p>
          <form method="post" action={TOTP_SETUP_ACTION} class="admin-form">
            <CsrfField session={session} />
            <button type="submit">Set up an authenticator app</button>
          </form>
        </>
      )}

      <h2>Passkeys</h2>
      <p>
        A passkey signs you in without a password, with your device's lock: <a href="/admin/account/passkeys">your passkeys</a>.
      </p>

      <h2>Sessions</h2>
      <p>Signing out everywhere ends every session of yours, in every browser, this one included.</p>
      <form method="post" action={SIGN_OUT_EVERYWHERE_ACTION} class="admin-form">
        <CsrfField session={session} />
        <button type="submit">Sign out everywhere</button>
      </form>

      <h2>Remembered devices</h2>
      <p>
        {rememberedText(account.devices.length)} A remembered browser is not held back when someone else keeps guessing your password; forget them when one
        of those browsers is lost or was not yours. A new password and signing out everywhere forget them too.
      </p>
      <form method="post" action={FORGET_DEVICES_ACTION} class="admin-form">
        <CsrfField session={session} />
        <button type="submit">Forget remembered devices</button>
      </form>
    </Layout>
  );
}

/** "3 browsers are remembered for your name." */
function rememberedText(count: number): string {
  if (count === 0) return 'No browser is remembered for your name.';
  return `${count} browser${count === 1 ? ' is' : 's are'} remembered for your name.`;
}

export interface TotpSetupPageProps {
  session: AdminSession;
  /** Base32. */
  secret: string;
  /** The otpauth:// address the QR code holds. */
  uri: string;
  /** The signed pending set-up (second-factor/signed-tokens.ts). */
  pending: string;
  problem?: string;
}

export function TotpSetupPage({ session, secret, uri, pending, problem }: TotpSetupPageProps) {
  const qr = `data:image/svg+xml;base64,${Buffer.from(renderSVG(uri, { border: 2 })).toString('base64')}`;
  const grouped = secret.match(/.{1,4}/g)?.join(' ') ?? secret;
  return (
    <Layout title="Set up an authenticator app" session={session} section="account">
      <h1>Set up an authenticator app</h1>
      <Problem problem={problem} />
      <ol>
        <li>
          <p>Scan this QR code with an authenticator app (or open it on this device: <a href={uri}>add to an authenticator app</a>):</p>
          <p>
            <img src={qr} width={200} height={200} alt="QR code of the secret below, for an authenticator app" />
          </p>
          <p>
            Or type the secret into it (time-based, 6 digits, every 30 seconds):{' '}
            <code id="totp-secret">
              {grouped}
            </code>
          </p>
        </li>
        <li>
          <form method="post" action={TOTP_ENABLE_ACTION} class="admin-form">
            <CsrfField session={session} />
            <input type="hidden" name="pending" value={pending} />
            <p>
              <label for="totp-code">The 6-digit code the app shows now</label>
              <input id="totp-code" name="code" type="text" inputmode="numeric" pattern="[0-9 ]*" autocomplete="one-time-code" maxLength={8} required autofocus />
            </p>
            <p>
              <button type="submit">Turn on</button>
            </p>
          </form>
        </li>
      </ol>
      <p>
        <a href={ACCOUNT_PATH}>Cancel</a>
      </p>
    </Layout>
  );
}

export function RecoveryCodesPage({ session, codes }: { session: AdminSession; codes: readonly string[] }) {
  return (
    <Layout title="Recovery codes" session={session} section="account">
      <h1>Recovery codes</h1>
      <p class="admin-notice" role="status">
        The authenticator app is on: signing in with your password now asks for its code.
      </p>
      <p>
        Keep these recovery codes somewhere safe, away from this device. Each one signs you in once instead of a code from the app, if you lose it. They are shown only
        this once.
      </p>
      <ol>
        {codes.map((code) => (
          <li>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p>
        <a href={ACCOUNT_PATH}>Done</a>
      </p>
    </Layout>
  );
}
