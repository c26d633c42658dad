import { createInterface } from "node:readline/promises";
import { systemClock } from "./clock.js";
import type { Io } from "./io.js";

/** The real terminal. Used only by the entry point. */
export function processIo(env: NodeJS.ProcessEnv): Io {
  const io: Io = {
    stdout: { write: (t) => void process.stdout.write(t), isTTY: process.stdout.isTTY === true },
    stderr: { write: (t) => void process.stderr.write(t), isTTY: process.stderr.isTTY === true },
    env,
    cwd: process.cwd(),
    clock: systemClock,
    onTerminate: (handler) => {
      process.once("SIGINT", handler);
      process.once("SIGTERM", handler);
      return () => {
        process.off("SIGINT", handler);
        process.off("SIGTERM", handler);
      };
    },
  };
  if (process.stdin.isTTY) {
    io.confirm = async (question) => {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        const answer = await rl.question(`${question} Only 'yes' will be accepted: `);
        return answer.trim() === "yes";
      } finally {
        rl.close();
      }
    };
  }
  return io;
}
