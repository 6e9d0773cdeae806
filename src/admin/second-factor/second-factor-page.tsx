// The second step of signing in (docs/admin.md "Your account"): after a right password of a user with TOTP, the
// code from the authenticator app or one recovery code. The pending sign-in travels in a hidden field, signed.
import { Layout } from '../views/layout.js';

export const SECOND_FACTOR_PATH = '/admin/login/second-factor';

export interface SecondFactorPageProps {
  /** The signed pending sign-in (signed-tokens.ts). */
  pending: string;
  /** Where to go after signing in (already checked by safeNextPath). */
  next?: string;
  /** Shown above the form, announced to screen readers. */
  problem?: string;
}

export function SecondFactorPage({ pending, next, problem }: SecondFactorPageProps) {
  return (
    <Layout title="Second step">
      <h1>Second step</h1>
      {problem && (
        <p class="admin-problem" role="alert">
          {problem}
        </p>
      )}
      <p>Enter the 6-digit code your authenticator app shows for Postbox, or one of your recovery codes.</p>
      <form method="post" action={SECOND_FACTOR_PATH} class="admin-form">
        <input type="hidden" name="pending" value={pending} />
        {next && <input type="hidden" name="next" value={next} />}
        <p>
          <label for="code">Code</label>
          <input id="code" name="code" type="text" autocomplete="one-time-code" spellcheck={false} autocapitalize="off" maxLength={20} required autofocus />
        </p>
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
      <p>
        <a href="/admin/login">Start again</a>
      </p>
    </Layout>
  );
}
