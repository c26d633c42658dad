/**
 * Text from outside (service answers, file names, names in files) made safe to print: control
 * characters, ANSI escapes included, shown as `\uXXXX`, so such text cannot drive a terminal; and, for
 * text that must stay on one line, line breaks and tabs shown as `\n`, `\r`, `\t`, so it cannot start a
 * line of its own (that reads like part of the output, or like a GitHub workflow command).
 */

/** Control characters (ANSI escapes included) made visible; line breaks and tabs are kept. */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => {
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** Text on one line: line breaks and tabs written as `\n`, `\r`, `\t`, other control characters as `\uXXXX`. */
export function flat(text: string): string {
  return visible(text.trim().replace(/\r/g, "\\r").replace(/\n/g, "\\n").replace(/\t/g, "\\t"));
}
