// Mail header hygiene (docs/forms-api.md "Delivery": no header of any mail ever carries a line break from
// input).

// C0 and C1 controls (CR and LF among them), DEL, and the Unicode line and paragraph separators.
const CONTROL_RUNS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

// What may never be part of an address: every control but the tab (which RFC 5322 allows in quoted strings).
const ADDRESS_BREAKERS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;

/** `value` as one line of free text (a subject): each run of control characters becomes a space, ends trimmed. */
export function toHeaderText(value: string): string {
  return value.replace(CONTROL_RUNS, ' ').trim();
}

/**
 * Whether `value` can stand in an address header as it is. An address with a line break is never
 * legitimate, and "repairing" it could turn it into a different recipient, so such a message is refused.
 */
export function isSafeAddressValue(value: string): boolean {
  return !ADDRESS_BREAKERS.test(value);
}
