/**
 * One clock (SPEC §6): only the shared package's clock (packages/shared/src/clock.ts) reads the machine's
 * time, in the tool (src/) and in the workspace packages alike. Everything else takes a `Clock`, so the
 * suite gives the same results at any time of day and on any date (see also the shifted-clock CI step).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { clockFrom, nowDate } from "posthog-gitops-shared/clock";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SOURCES = ["src", "packages/shared/src", "packages/emulator/src"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("the clock", () => {
  it("is the only reader of the machine's time in the tool's and the packages' sources", () => {
    const readers = /Date\.now\(\)|new Date\(\)|performance\.now\(\)|\bDate\(\)/;
    const offenders = SOURCES.flatMap((folder) => sources(join(ROOT, folder)))
      .filter((file) => relative(ROOT, file) !== join("packages", "shared", "src", "clock.ts"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ file: relative(ROOT, file), line: i + 1, text: line }))
          .filter((l) => readers.test(l.text) && !/^\s*(\/\/|\*)/.test(l.text)),
      )
      .map((l) => `${l.file}:${l.line}: ${l.text.trim()}`);
    expect(offenders).toEqual([]);
  });

  it("starts where a test puts it and runs at real speed", async () => {
    const clock = clockFrom("2030-01-01T00:00:00Z");
    expect(nowDate(clock).toISOString()).toBe("2030-01-01T00:00:00.000Z");
    await clock.sleep(20);
    expect(clock.now() - Date.parse("2030-01-01T00:00:00Z")).toBeGreaterThanOrEqual(15);
    expect(() => clockFrom("yesterday")).toThrow(RangeError);
  });
});
