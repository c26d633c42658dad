/**
 * Colour for human output: the caller decides whether it is on (`colorEnabled`: a terminal, no
 * NO_COLOR), and `node:util`'s styleText writes the codes (with the right reset for each style, so
 * nested styles end cleanly). styleText is told not to second-guess the caller's decision by looking at
 * process.stdout itself: renderers are pure and may render for another stream or a file.
 */
import { styleText } from "node:util";

export type Style = "green" | "red" | "yellow" | "cyan" | "bold" | "dim";

export type Paint = (style: Style | undefined, text: string) => string;

export function painter(on: boolean): Paint {
  return (style, text) => (on && style ? styleText(style, text, { validateStream: false }) : text);
}

/**
 * Colour only on a TTY; never when NO_COLOR is set to anything non-empty (it wins over everything);
 * FORCE_COLOR set to anything but "0" turns it on without a TTY; TERM=dumb turns it off.
 */
export function colorEnabled(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0";
  return isTTY && env.TERM !== "dumb";
}
