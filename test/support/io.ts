/**
 * A recording `Io` for tests, with a clock the test chooses: by default one that starts at TEST_NOW and
 * runs at real speed, so nothing a test asserts depends on the date or the time of day it runs at.
 */
import type { Clock } from "posthog-gitops-shared/clock";
import { testClock } from "../../packages/emulator/test/support/clock.js";
import type { Io } from "../../src/io.js";

/** The instant tests start at unless they pick another, and a clock from it: the emulator's tests' own. */
export { TEST_NOW, testClock } from "../../packages/emulator/test/support/clock.js";

export function memoryIo(
  env: Record<string, string | undefined> = {},
  cwd = process.cwd(),
  clock: Clock = testClock(),
) {
  let out = "";
  let err = "";
  const io: Io = {
    stdout: {
      write: (t) => {
        out += t;
      },
    },
    stderr: {
      write: (t) => {
        err += t;
      },
    },
    env,
    cwd,
    clock,
  };
  return {
    io,
    get stdout() {
      return out;
    },
    get stderr() {
      return err;
    },
  };
}
