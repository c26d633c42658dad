/**
 * One clock (SPEC §6): only src/clock.ts reads the machine's time. Everything else takes a `Clock`, so the
 * suite gives the same results at any time of day and on any date (see also the shifted-clock CI step).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { clockFrom, nowDate } from "../src/clock.js";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("the clock", () => {
  it("is the only reader of the machine's time in src/", () => {
    const readers = /Date\.now\(\)|new Date\(\)|performance\.now\(\)|\bDate\(\)/;
    const offenders = sources(SRC)
      .filter((file) => !file.endsWith("/clock.ts"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ file: relative(SRC, file), line: i + 1, text: line }))
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
