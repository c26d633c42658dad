/**
 * Every file the tool writes goes through `writeOutput` (src/files.ts), which scrubs it: a new code
 * path that writes a file directly fails here until it is listed, with the reason it needs no scrubbing.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Files that may write with node:fs themselves, and why that is safe. */
const ALLOWED: Record<string, string> = {
  "src/files.ts": "writeOutput itself",
  "src/service/budget-file.ts": "the spent rate budget: numbers and times, no text from anywhere",
  "src/action/run.ts": "the action saves the CLI's stdout, which the CLI scrubbed, in a folder it just made",
};

const WRITES = /\b(writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|writeSync)\b/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("file writes", () => {
  it("go through writeOutput, except where listed", () => {
    const direct = sources(join(ROOT, "src"))
      .map((file) => relative(ROOT, file).split("\\").join("/"))
      .filter((file) => !(file in ALLOWED))
      .filter((file) => WRITES.test(readFileSync(join(ROOT, file), "utf8")));
    expect(direct).toEqual([]);
  });
});
