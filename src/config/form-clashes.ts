// Clashes between [[forms]] tables that no table shows alone (docs/configuration.md [[forms]]): two forms on
// one path, a form on another's confirmation path, an archive in another form's subscriber log. Pure: the
// schema turns each clash into a problem at its key path. Runs on entries that may have failed their own
// checks, so nothing is assumed of a value's type.

/** A newsletter form's confirmation path (`GET <path>/confirm`), a trailing slash of its path dropped. */
export function confirmPathOf(formPath: string): string {
  return `${formPath.replace(/\/+$/, '')}/confirm`;
}

/** A newsletter form's unsubscribe path (`<path>/unsubscribe`, docs/newsletter.md "Leaving the list"). */
export function unsubscribePathOf(formPath: string): string {
  return `${formPath.replace(/\/+$/, '')}/unsubscribe`;
}

/** A form's proof-of-work challenge path (`GET <path>/challenge`, docs/spam.md "Proof of work"). */
export function challengePathOf(formPath: string): string {
  return `${formPath.replace(/\/+$/, '')}/challenge`;
}

/** One clash, reported on `forms[index].<key>`. */
export interface FormClash {
  index: number;
  key: 'path' | 'archive';
  message: string;
}

interface FormOutline {
  index: number;
  path: string;
  newsletter: boolean;
  archive: unknown;
  subscribers: unknown;
}

/** Every clash among `forms`, each reported on the later form (or on the form that takes another's path). */
export function findFormClashes(forms: readonly unknown[]): FormClash[] {
  const outlines = forms.flatMap((entry, index): FormOutline[] => {
    if (entry === null || typeof entry !== 'object') return [];
    const { path, type, archive, subscribers } = entry as Record<string, unknown>;
    return typeof path === 'string' ? [{ index, path, newsletter: type === 'newsletter', archive, subscribers }] : [];
  });
  const clashes: FormClash[] = [];
  const byPath = new Map<string, FormOutline>();
  const byConfirmPath = new Map<string, FormOutline>();
  for (const form of outlines) {
    const first = byPath.get(form.path);
    if (first) clashes.push({ index: form.index, key: 'path', message: `duplicates forms[${first.index}].path "${form.path}"` });
    else byPath.set(form.path, form);
    if (!form.newsletter) continue;
    const confirmPath = confirmPathOf(form.path);
    const sameConfirmPath = byConfirmPath.get(confirmPath);
    if (sameConfirmPath && !first) {
      clashes.push({ index: form.index, key: 'path', message: `gives the same confirmation path "${confirmPath}" as forms[${sameConfirmPath.index}].path "${sameConfirmPath.path}"` });
    } else if (!sameConfirmPath) {
      byConfirmPath.set(confirmPath, form);
    }
  }
  const byUnsubscribePath = new Map(outlines.filter((form) => form.newsletter).map((form) => [unsubscribePathOf(form.path), form]));
  for (const form of outlines) {
    const newsletter = byConfirmPath.get(form.path);
    if (newsletter) {
      clashes.push({ index: form.index, key: 'path', message: `is the confirmation path of the newsletter form forms[${newsletter.index}] ("${newsletter.path}")` });
    }
    const unsubscribing = byUnsubscribePath.get(form.path);
    if (unsubscribing) {
      clashes.push({ index: form.index, key: 'path', message: `is the unsubscribe path of the newsletter form forms[${unsubscribing.index}] ("${unsubscribing.path}")` });
    }
    if (form.newsletter || typeof form.archive !== 'string') continue;
    const log = outlines.find((other) => other.newsletter && other.subscribers === form.archive);
    if (log) clashes.push({ index: form.index, key: 'archive', message: `is the subscriber log of forms[${log.index}]` });
  }
  return clashes;
}
