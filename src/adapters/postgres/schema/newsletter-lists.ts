// Migration version 13: the lists a pending signup chose (docs/newsletter.md "Lists"), as the keys of their
// subscriber events (a form's path, or the id of a list without a form); null for the form's own list alone.
export const PENDING_LISTS_COLUMN = `
ALTER TABLE pending_signups ADD COLUMN lists text[];
`;
