/**
 * The unit project shares each worker's modules between its files (vitest.config.ts): a file that
 * replaces a module with `vi.mock` (or `vi.doMock`) would see the real one, or leave its mock to the
 * next file. Such files run isolated, in the unit-isolated project; this keeps its list complete.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UNIT_MOCKING } from "../vitest.config.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("unit files that mock modules", () => {
  it("are the ones the unit-isolated project runs", () => {
    const mocking = readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) =>
        relative(ROOT, join(ROOT, "test", file))
          .split("\\")
          .join("/"),
      )
      .filter((file) => !/^test\/(e2e|faults|fuzz|package|live)\/|\.e2e\.test\.ts$/.test(file))
      .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(ROOT, file), "utf8")));
    expect(mocking.sort()).toEqual([...UNIT_MOCKING].sort());
  });
});
