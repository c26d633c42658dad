/**
 * Asking before a command changes anything. Only `yes` goes on; `no` and end of input (Ctrl-D) cancel
 * with exit 1, Ctrl-C with exit 130 — one line, never a stack trace.
 */
import type { Io } from "../io.js";

/** Undefined to go on; else the exit code, after printing "<What> cancelled. <nothing>". */
export async function confirmOrCancel(
  io: Io,
  question: string,
  what: string,
  nothing: string,
): Promise<number | undefined> {
  const answer = io.confirm ? await io.confirm(question) : "eof";
  if (answer === "yes") return undefined;
  io.stderr.write(`${what} cancelled. ${nothing}\n`);
  return answer === "interrupt" ? 130 : 1;
}
