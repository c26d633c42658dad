// Moves this process's wall clock to TEST_CLOCK_SHIFT_TO and keeps it ticking, to prove that tests do not
// depend on the time of day or the date (CI runs the time-sensitive files this way at two instants):
//
//   TEST_CLOCK_SHIFT_TO=2028-02-29T23:59:30Z NODE_OPTIONS="--import=./test/support/shift-clock.mjs" vitest run …
//
// The first process turns the target into one offset (TEST_CLOCK_OFFSET_MS) that every process it
// starts inherits through the environment; test helpers that spawn with an explicit environment pass
// NODE_OPTIONS and these variables on (see child-env.ts). Only Date.now() and argument-less Date
// move; timers and performance.now() run as they are.
const Real = globalThis.Date;
if (process.env.TEST_CLOCK_SHIFT_TO && !process.env.TEST_CLOCK_OFFSET_MS) {
  const target = Real.parse(process.env.TEST_CLOCK_SHIFT_TO);
  if (Number.isNaN(target))
    throw new Error(`TEST_CLOCK_SHIFT_TO is not an instant: ${process.env.TEST_CLOCK_SHIFT_TO}`);
  process.env.TEST_CLOCK_OFFSET_MS = String(target - Real.now());
}
const offset = Number(process.env.TEST_CLOCK_OFFSET_MS ?? "0");
if (Number.isFinite(offset) && offset !== 0) {
  class ShiftedDate extends Real {
    constructor(...args) {
      if (args.length === 0) super(Real.now() + offset);
      else super(...args);
    }
    static now() {
      return Real.now() + offset;
    }
  }
  globalThis.Date = new Proxy(ShiftedDate, {
    apply: () => new Real(Real.now() + offset).toString(),
  });
}
