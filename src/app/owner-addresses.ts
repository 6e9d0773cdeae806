// The owner's own addresses (docs/bounces.md "Suppression"): every form's `to`, `mail.to`, and the addresses of the
// /admin users. Their bounces are the owner's to see and are never suppressed: a typo in one of them must show up
// as an error in the log, not silently stop the owner's mail.
import type { AccountStore } from '../admin/accounts/account-store.js';
import { parseMailboxes } from '../config/mail-addresses.js';
import type { Config } from '../config/config.js';

/** The addresses the configuration names as the owner's, lower-cased. */
export function configOwnerAddresses(config: Pick<Config, 'forms' | 'mail'>): Set<string> {
  const values = [...config.forms.map((form) => form.to), ...(config.mail?.to === undefined ? [] : [config.mail.to])];
  const addresses = new Set<string>();
  for (const value of values) {
    const parsed = parseMailboxes(value);
    if ('addresses' in parsed) for (const address of parsed.addresses) addresses.add(address.toLowerCase());
  }
  return addresses;
}

/** Whether an address is the owner's: one of the configuration's, else an /admin user's (read from the store each time). */
export function createOwnerCheck(configured: ReadonlySet<string>, accounts: Pick<AccountStore, 'list'> | undefined): (address: string) => Promise<boolean> {
  return async (address) => {
    const wanted = address.toLowerCase();
    if (configured.has(wanted)) return true;
    if (!accounts) return false;
    return (await accounts.list()).some((account) => account.email?.toLowerCase() === wanted);
  };
}
