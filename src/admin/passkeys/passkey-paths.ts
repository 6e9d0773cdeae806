// The addresses of the passkeys (docs/admin.md "Passkeys"): the person's own page and its actions, the sign-in's
// two anonymous routes, and the one script both pages load.

export const PASSKEYS_PATH = '/admin/account/passkeys';
export const PASSKEY_OPTIONS_ACTION = '/admin/account/passkeys/options';
export const PASSKEY_REGISTER_ACTION = '/admin/account/passkeys/register';
export const PASSKEY_ADD_ACTION = '/admin/account/passkeys/add';
export const PASSKEY_RENAME_ACTION = '/admin/account/passkeys/rename';
export const PASSKEY_REMOVE_ACTION = '/admin/account/passkeys/remove';

export const PASSKEY_SIGN_IN_OPTIONS_PATH = '/admin/login/passkey/options';
export const PASSKEY_SIGN_IN_PATH = '/admin/login/passkey';

/** The script of the passkeys page and of the sign-in page's passkey button (browser/passkeys.ts). */
export const PASSKEYS_SCRIPT = 'passkeys.js';
