// Mail header hygiene (contract section 3: no header of any mail ever carries a raw CR or LF from input).

// C0 and C1 controls (CR and LF among them), DEL, and the Unicode line and paragraph separators.
const CONTROL_RUNS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** `value` as one header line: every run of control characters becomes one space, ends trimmed. */
export function toHeaderText(value: string): string {
  return value.replace(CONTROL_RUNS, ' ').trim();
}
