/**
 * Everything a command may touch outside its own memory, passed in so tests can run commands directly.
 * Only the entry point (`src/cli.ts` via `bin/`) builds an `Io` from `process`.
 */
import type { Clock } from "posthog-gitops-shared/clock";

export interface Output {
  write(text: string): void;
  /** True when the stream is an interactive terminal (colour, prompts and live lines are allowed). */
  readonly isTTY?: boolean;
  /** The terminal's width, when it is one. */
  readonly columns?: number;
}

/**
 * What the user answered at a prompt: `yes` only for the word yes; `no` for anything else; `eof` when
 * input ended (Ctrl-D); `interrupt` for Ctrl-C.
 */
export type Answer = "yes" | "no" | "eof" | "interrupt";

export type StopSignalName = "SIGINT" | "SIGTERM";

export interface Io {
  stdout: Output;
  stderr: Output;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The one clock of the run: every "now" of a command comes from here. */
  clock: Clock;
  /** Asks a yes/no question on the terminal; absent when stdin is not a TTY. */
  confirm?: (question: string) => Promise<Answer>;
  /**
   * Runs `handler` when the user asks the program to stop (SIGINT / SIGTERM); a second request ends the
   * process at once (130 / 143), after calling `handler` once more with `last` true, for what must be
   * written before the end (output held back). Returns a function that removes the handler. Without a
   * handler the signal ends the process as usual.
   */
  onTerminate?: (handler: (signal: StopSignalName, last?: boolean) => void) => () => void;
  /**
   * The run's secrets (scrub.ts): set by the CLI, which scrubs stdout and stderr with it; the files a
   * command writes go through `scrubText`, and the configuration loader adds every secret it resolves.
   */
  scrubber?: SecretScrubber;
}

/** What the code that writes needs of a run's scrubber (implemented by `Scrubber` in src/scrub.ts). */
export interface SecretScrubber {
  /** Hides `value` from now on, shown as `label`. */
  add(value: string | undefined, label: string): unknown;
  /** `text` with every known secret replaced. */
  scrub(text: string): string;
  /** The label of the first secret `text` holds, if any. */
  secretIn(text: string): string | undefined;
}

/** The exit code of a command stopped by `signal`: 128 + the signal's number. */
export function exitCodeForSignal(signal: StopSignalName): number {
  return signal === "SIGTERM" ? 143 : 130;
}
