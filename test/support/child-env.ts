/**
 * The environment of a process a test starts: PATH, the variables given, and what carries a shifted
 * test clock (test/support/shift-clock.mjs) into the child, so parent and child agree on "now".
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const carried: Record<string, string | undefined> = { PATH: process.env.PATH };
  for (const name of ["NODE_OPTIONS", "TEST_CLOCK_SHIFT_TO", "TEST_CLOCK_OFFSET_MS"]) {
    if (process.env[name] !== undefined) carried[name] = process.env[name];
  }
  return { ...carried, ...extra } as NodeJS.ProcessEnv;
}
