/**
 * How much of a file's content a message may quote: at most one line, at most MAX_QUOTE_CHARS
 * characters. A file of one huge line, or a huge key, never turns into a huge error message.
 */

export const MAX_QUOTE_CHARS = 120;

/** The first line of `text`, cut to `max` characters with an ellipsis. */
export function excerpt(text: string, max = MAX_QUOTE_CHARS): string {
  const end = text.search(/[\r\n]/);
  const line = end === -1 ? text : text.slice(0, end);
  const cut = end !== -1 && end < text.length - 1;
  if (line.length <= max) return cut ? `${line}…` : line;
  let keep = max - 1;
  // Never split a character made of two UTF-16 units.
  const last = line.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return `${line.slice(0, keep)}…`;
}
