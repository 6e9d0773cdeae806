// The sign-in page (docs/admin.md "Signing in"): "Name", "Password", "Sign in"; one message for a wrong name or
// password, and after too many failures, when to try again. "Sign in with a passkey" is shown by its script
// (browser/passkeys.ts) in a browser that has passkeys: it needs no name typed.
import { PASSKEY_SIGN_IN_OPTIONS_PATH, PASSKEY_SIGN_IN_PATH, PASSKEYS_SCRIPT } from '../passkeys/passkey-paths.js';
import { Layout } from './layout.js';

export interface LoginPageProps {
  /** Where to go after signing in (already checked by safeNextPath). */
  next?: string;
  /** The name typed before, to keep in the field after a failure. */
  name?: string;
  /** Shown above the form, announced to screen readers. */
  problem?: string;
}

export function LoginPage({ next, name, problem }: LoginPageProps) {
  return (
    <Layout title="Sign in" scripts={[PASSKEYS_SCRIPT]}>
      <h1>Sign in</h1>
      {problem && (
        <p class="admin-problem" role="alert">
          {problem}
        </p>
      )}
      <form method="post" action="/admin/login" class="admin-form">
        {next && <input type="hidden" name="next" value={next} />}
        <p>
          <label for="name">Name</label>
          <input id="name" name="name" type="text" autocomplete="username" required autofocus value={name ?? ''} />
        </p>
        <p>
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
        </p>
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
      <div class="admin-passkey-sign-in" data-passkey-area hidden>
        <p>Or, without your name and password:</p>
        <p>
          <button type="button" data-passkey-sign-in data-passkey-options={PASSKEY_SIGN_IN_OPTIONS_PATH} data-passkey-url={PASSKEY_SIGN_IN_PATH}>
            Sign in with a passkey
          </button>
        </p>
        <p role="status" data-passkey-sign-in-status></p>
      </div>
    </Layout>
  );
}
