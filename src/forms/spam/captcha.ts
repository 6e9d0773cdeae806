// The optional third-party captcha of `[forms.spam] captcha` (docs/spam.md "A captcha"): Cloudflare Turnstile or
// hCaptcha, the only call Postbox makes to a third party for spam. Its answer is one of three: passed, failed, or
// unreachable; the caller quarantines on both of the last two, so an outage there never loses a message.

export type CaptchaProvider = 'turnstile' | 'hcaptcha';

/** Where each provider checks a token, and the form field its widget fills. */
export const CAPTCHA_PROVIDERS: Readonly<Record<CaptchaProvider, { verifyUrl: string; field: string }>> = Object.freeze({
  turnstile: { verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify', field: 'cf-turnstile-response' },
  hcaptcha: { verifyUrl: 'https://api.hcaptcha.com/siteverify', field: 'h-captcha-response' },
});

/** How long the provider may take before it counts as unreachable. */
export const CAPTCHA_TIMEOUT_MS = 5_000;

export type CaptchaResult = 'passed' | 'failed' | 'unreachable';

export interface CaptchaSettings {
  provider: CaptchaProvider;
  secret: string;
  /** The provider's verify URL; tests point it at a server of their own. */
  verifyUrl?: string;
}

/** A `fetch` as Node has it; injected so tests never reach the provider. */
export type Fetch = typeof fetch;

/** Asks the provider whether `token` is a passed captcha for the visitor at `remoteAddress`. */
export async function verifyCaptcha(settings: CaptchaSettings, token: unknown, remoteAddress: string, fetchImpl: Fetch): Promise<CaptchaResult> {
  if (typeof token !== 'string' || token === '' || token.length > 4096) return 'failed';
  const body = new URLSearchParams({ secret: settings.secret, response: token, remoteip: remoteAddress });
  let answer: Response;
  try {
    answer = await fetchImpl(settings.verifyUrl ?? CAPTCHA_PROVIDERS[settings.provider].verifyUrl, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(CAPTCHA_TIMEOUT_MS),
    });
  } catch {
    return 'unreachable';
  }
  if (!answer.ok) return 'unreachable';
  let parsed: unknown;
  try {
    parsed = await answer.json();
  } catch {
    return 'unreachable';
  }
  return typeof parsed === 'object' && parsed !== null && (parsed as { success?: unknown }).success === true ? 'passed' : 'failed';
}
