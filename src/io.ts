/**
 * Everything a command may touch outside its own memory, passed in so tests can run commands directly.
 * Only the entry point (`src/cli.ts` via `bin/`) builds an `Io` from `process`.
 */
import type { Clock } from "./clock.js";

export interface Output {
  write(text: string): void;
  /** True when the stream is an interactive terminal (colour and prompts are allowed). */
  readonly isTTY?: boolean;
}

export interface Io {
  stdout: Output;
  stderr: Output;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** The one clock of the run: every "now" of a command comes from here. */
  clock: Clock;
  /** Asks a yes/no question on the terminal; absent when stdin is not a TTY. */
  confirm?: (question: string) => Promise<boolean>;
  /**
   * Runs `handler` once when the user asks the program to stop (SIGINT / SIGTERM), for long-running
   * commands such as `emulator`; returns a function that removes it.
   */
  onTerminate?: (handler: () => void) => () => void;
}
