// Chat services refuse texts past their limit (Telegram 4,096 characters, Discord 2,000): a longer notification
// is cut there, visibly, rather than not sent at all.

/**
 * `text` when it fits in `limit` UTF-16 units, else its start and an ellipsis within `limit`. Counting UTF-16
 * units is at least as strict as a service that counts characters.
 */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  // Leave room for the ellipsis and never split a surrogate pair.
  const cut = text.slice(0, limit - 1);
  return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}
