// The passkeys' one script (the CSP runs scripts from /admin only, never inline ones). On /admin/account/passkeys
// it runs the add form: registration options from the server, the browser's navigator.credentials.create, the
// answer back to the server. On the sign-in page it shows and runs "Sign in with a passkey": authentication options,
// navigator.credentials.get (any passkey of this site, no name typed), the answer back, then on to where the server
// says. WebAuthn speaks ArrayBuffers and the server base64url text: the two small converters below translate.
// Without WebAuthn the button stays hidden and the add form says what it needs.

/** A credential as the server lists it (base64url id). */
interface CredentialText {
  type?: 'public-key';
  id: string;
  transports?: AuthenticatorTransport[];
}

/** The options the server sends, as @simplewebauthn/server makes them: buffers as base64url text. */
interface OptionsText {
  challenge: string;
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: CredentialText[];
  allowCredentials?: CredentialText[];
  hints?: unknown;
  [other: string]: unknown;
}

/** What the passkey routes answer: a problem to show, a password to confirm, options and a token, or where to go. */
interface PasskeyBody {
  problem?: string;
  confirm?: boolean;
  options?: OptionsText;
  token?: string;
  location?: string;
}

interface PasskeyAnswer {
  status: number;
  body: PasskeyBody;
}

/** A failure whose text the server gave, shown as it is. */
interface Shown {
  shown: string | undefined;
}

function bufferOf(text: string): ArrayBuffer {
  let base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  while (base64.length % 4 !== 0) base64 += '=';
  const binary = window.atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes.buffer;
}

function textOf(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let index = 0; index < bytes.length; index += 1) binary += String.fromCharCode(bytes[index] as number);
  return window.btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function credentialsOf(list: CredentialText[] | undefined): PublicKeyCredentialDescriptor[] {
  return (list || []).map((item) => {
    const copy: PublicKeyCredentialDescriptor = { type: item.type || 'public-key', id: bufferOf(item.id) };
    if (item.transports) copy.transports = item.transports;
    return copy;
  });
}

/** POSTs fields as a form and reads the JSON answer. Anything but JSON is a page out of date. */
function post(url: string | null, fields: Record<string, string>): Promise<PasskeyAnswer> {
  return window
    .fetch(url || '', {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
    })
    .then((response) => {
      const type = response.headers.get('content-type') || '';
      if (type.indexOf('application/json') !== 0) throw new Error('not json');
      return response.json().then((body: PasskeyBody) => ({ status: response.status, body }));
    });
}

function say(element: Element | null, text: string): void {
  if (element) element.textContent = text;
}

function failureText(error: unknown): string {
  const failure = error as { name?: unknown; message?: unknown } | null;
  if (failure && (failure.name === 'NotAllowedError' || failure.name === 'AbortError')) return 'No passkey was used. Try again when you are ready.';
  if (failure && failure.name === 'InvalidStateError') return 'This device holds one of your passkeys already.';
  if (failure && (failure.message === 'not json' || failure.name === 'TypeError')) return 'The page is out of date, or the server could not be reached. Reload the page and try again.';
  return 'The passkey did not work in this browser. Try again, or use another device.';
}

function shownOf(error: unknown): string {
  const failure = error as Partial<Shown> | null;
  return failure && typeof failure.shown === 'string' ? failure.shown : failureText(error);
}

/** The options without `hints`, which not every browser takes. */
function withoutHints(options: OptionsText): OptionsText {
  const copy = { ...options };
  delete copy.hints;
  return copy;
}

const supported = typeof window.PublicKeyCredential === 'function' && !!navigator.credentials && typeof window.fetch === 'function';

/** Adding a passkey (/admin/account/passkeys). */
function startRegistration(form: HTMLFormElement): void {
  const unsupported = document.querySelector<HTMLElement>('[data-passkey-unsupported]');
  const status = form.querySelector('[data-passkey-status]');
  if (supported && unsupported) unsupported.hidden = true;
  let busy = false;
  form.addEventListener('submit', (event) => {
    if (!supported) return;
    event.preventDefault();
    if (busy) return;
    busy = true;
    const fields = new FormData(form);
    const base = { csrf_token: String(fields.get('csrf_token') || ''), label: String(fields.get('label') || '') };
    say(status, 'Follow your browser to make the passkey.');
    post(form.getAttribute('data-passkey-register'), base)
      .then((answer): Promise<PasskeyAnswer> | null => {
        if (answer.status === 403 && answer.body.confirm) {
          // The password is due: the form itself asks for it.
          busy = false;
          form.submit();
          return null;
        }
        if (answer.status !== 200 || !answer.body.options) throw { shown: answer.body.problem } satisfies Shown;
        const sent = withoutHints(answer.body.options);
        const options = {
          ...sent,
          challenge: bufferOf(sent.challenge),
          user: { ...sent.user, id: bufferOf(sent.user.id) },
          excludeCredentials: credentialsOf(sent.excludeCredentials),
        } as unknown as PublicKeyCredentialCreationOptions;
        return navigator.credentials.create({ publicKey: options }).then((created) => {
          const credential = created as PublicKeyCredential;
          const attestation = credential.response as AuthenticatorAttestationResponse;
          const response = credentialJson(credential, {
            clientDataJSON: textOf(attestation.clientDataJSON),
            attestationObject: textOf(attestation.attestationObject),
            transports: typeof attestation.getTransports === 'function' ? attestation.getTransports() : [],
          });
          say(status, 'Checking the passkey.');
          return post(form.getAttribute('data-passkey-finish'), { csrf_token: base.csrf_token, label: base.label, token: answer.body.token || '', response: JSON.stringify(response) });
        });
      })
      .then((answer) => {
        if (answer === null) return;
        if (answer.status === 403 && answer.body.confirm) {
          busy = false;
          form.submit();
          return;
        }
        if (answer.status !== 200) throw { shown: answer.body.problem } satisfies Shown;
        window.location.assign(answer.body.location || '');
      })
      .catch((error: unknown) => {
        busy = false;
        say(status, shownOf(error));
      });
  });
}

/** Signing in with a passkey (/admin/login). */
function startSignIn(button: HTMLButtonElement): void {
  const area = document.querySelector<HTMLElement>('[data-passkey-area]');
  const signInStatus = document.querySelector('[data-passkey-sign-in-status]');
  if (area) area.hidden = false;
  let signingIn = false;
  button.addEventListener('click', () => {
    if (signingIn) return;
    signingIn = true;
    const nextField = document.querySelector<HTMLInputElement>('input[name="next"]');
    const next = nextField ? nextField.value : '';
    say(signInStatus, 'Follow your browser to choose a passkey.');
    post(button.getAttribute('data-passkey-options'), {})
      .then((answer) => {
        if (answer.status !== 200 || !answer.body.options) throw { shown: answer.body.problem } satisfies Shown;
        const sent = withoutHints(answer.body.options);
        const options = { ...sent, challenge: bufferOf(sent.challenge), allowCredentials: credentialsOf(sent.allowCredentials) } as unknown as PublicKeyCredentialRequestOptions;
        return navigator.credentials.get({ publicKey: options }).then((found) => {
          const credential = found as PublicKeyCredential;
          const assertion = credential.response as AuthenticatorAssertionResponse;
          const response = credentialJson(credential, {
            clientDataJSON: textOf(assertion.clientDataJSON),
            authenticatorData: textOf(assertion.authenticatorData),
            signature: textOf(assertion.signature),
            userHandle: assertion.userHandle ? textOf(assertion.userHandle) : undefined,
          });
          say(signInStatus, 'Checking the passkey.');
          return post(button.getAttribute('data-passkey-url'), { token: answer.body.token || '', response: JSON.stringify(response), next });
        });
      })
      .then((answer) => {
        if (answer.status !== 200) throw { shown: answer.body.problem } satisfies Shown;
        window.location.assign(answer.body.location || '');
      })
      .catch((error: unknown) => {
        signingIn = false;
        say(signInStatus, shownOf(error));
      });
  });
}

const registerForm = document.querySelector<HTMLFormElement>('form[data-passkey-register]');
if (registerForm) startRegistration(registerForm);
const signInButton = document.querySelector<HTMLButtonElement>('button[data-passkey-sign-in]');
if (signInButton && supported) startSignIn(signInButton);

/** A credential as the server reads it (JSON, binary parts in base64url), around its ceremony's own `response`. */
function credentialJson(credential: PublicKeyCredential, response: Record<string, unknown>) {
  return {
    id: credential.id,
    rawId: textOf(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
    response,
  };
}
