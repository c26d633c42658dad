import { createInterface } from "node:readline/promises";
import { systemClock } from "posthog-gitops-shared/clock";
import { type Answer, exitCodeForSignal, type Io, type Output, type StopSignalName } from "./io.js";

/**
 * A stream the reader may close early (`plan | head -1`): after EPIPE, further output is dropped
 * instead of crashing the run; the command finishes and keeps its exit code.
 */
function output(stream: NodeJS.WriteStream): Output {
  let closed = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
  });
  return {
    write: (t) => {
      if (!closed) stream.write(t);
    },
    isTTY: stream.isTTY === true,
    get columns() {
      return stream.columns;
    },
  };
}

/** The real terminal. Used only by the entry point. */
export function processIo(env: NodeJS.ProcessEnv): Io {
  const io: Io = {
    stdout: output(process.stdout),
    stderr: output(process.stderr),
    env,
    cwd: process.cwd(),
    clock: systemClock,
    onTerminate: (handler) => {
      let received = false;
      const listener = (signal: StopSignalName) => {
        // The second request does not wait for anything but the output already made.
        if (received) {
          handler(signal, true);
          process.exit(exitCodeForSignal(signal));
        }
        received = true;
        handler(signal);
      };
      process.on("SIGINT", listener);
      process.on("SIGTERM", listener);
      return () => {
        process.off("SIGINT", listener);
        process.off("SIGTERM", listener);
      };
    },
  };
  if (process.stdin.isTTY) io.confirm = (question) => ask(question);
  return io;
}

/** One question on the terminal; Ctrl-C and end of input are answers too, never errors. */
function ask(question: string): Promise<Answer> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    let settled = false;
    const finish = (answer: Answer) => {
      if (settled) return;
      settled = true;
      if (answer === "eof" || answer === "interrupt") process.stderr.write("\n");
      rl.close();
      resolve(answer);
    };
    rl.on("SIGINT", () => finish("interrupt"));
    rl.on("close", () => finish("eof"));
    rl.question(`${question} Only 'yes' will be accepted: `).then(
      (text) => finish(text.trim() === "yes" ? "yes" : "no"),
      () => finish("eof"),
    );
  });
}
