/**
 * `posthog-gitops emulator`: starts the local service stand-in, prints exactly one line
 * `listening on http://HOST:PORT` on stdout, and runs until SIGINT / SIGTERM (or `options.signal`,
 * used by tests), then closes and returns 0. A non-loopback `--host` must be given explicitly and is
 * warned about on stderr.
 */
import type { EmulatorFlags, RunningEmulator } from "posthog-gitops-emulator";
import { UserError } from "../errors.js";
import type { Io } from "../io.js";

export interface EmulatorCommandOptions extends EmulatorFlags {
  /** Stops the emulator when aborted (tests); otherwise SIGINT / SIGTERM do. */
  signal?: AbortSignal;
}

/**
 * The emulator package, loaded when the command runs: the GitHub Action's bundle leaves it out
 * (scripts/build-action.mjs), so only this command would miss it there, and says so.
 */
async function emulatorPackage() {
  try {
    return await import("posthog-gitops-emulator");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UserError(
      `the emulator is not installed (${message.split("\n")[0]}): install posthog-gitops-emulator, or run \`npx posthog-gitops-emulator\``,
    );
  }
}

export async function run(options: EmulatorCommandOptions, io: Io): Promise<number> {
  const { EmulatorUsageError, isLoopback, optionsFromFlags, startEmulator } = await emulatorPackage();
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host)) {
    io.stderr.write(`warning: binding the emulator to ${host}: other machines can reach it\n`);
  }
  let emulator: RunningEmulator;
  try {
    emulator = await startEmulator(optionsFromFlags(options, io.clock));
  } catch (error) {
    if (error instanceof EmulatorUsageError) throw new UserError(error.message);
    const message = error instanceof Error ? error.message : String(error);
    throw new UserError(`cannot start the emulator: ${message}`);
  }
  io.stdout.write(`listening on ${emulator.url}\n`);
  await waitForStop(options.signal, io);
  await emulator.close();
  return 0;
}

/** Waits for the abort signal (tests) or the user's request to stop (SIGINT / SIGTERM through `io`). */
function waitForStop(signal: AbortSignal | undefined, io: Io): Promise<void> {
  return new Promise((resolve) => {
    let unsubscribe: (() => void) | undefined;
    const stop = () => {
      unsubscribe?.();
      signal?.removeEventListener("abort", stop);
      resolve();
    };
    if (signal?.aborted) return stop();
    signal?.addEventListener("abort", stop);
    unsubscribe = io.onTerminate?.(stop);
  });
}
