/**
 * Hostile file systems around the configuration (SPEC §6 and §8: huge files, and the walk must end): a
 * file over the size limit, a folder symlinked into itself, a FIFO and a link to /dev/zero named
 * *.yaml. Each load ends quickly with a diagnostic per refused file, and never reads an endless stream.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/index.js";

let root: string;
const VALID = "project: 12345\ndashboards:\n  - name: Fine\n";

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "phgo-fuzz-files-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function load(dir: string, paths: string[] = ["."]) {
  // A hang is caught by the test's own timeout; nothing here reads the clock.
  return loadConfig(paths, { env: {}, cwd: dir, mode: "validate" });
}

describe("hostile files and folders", () => {
  it("refuses a file over the size limit without parsing it", async () => {
    const dir = join(root, "huge");
    mkdirSync(dir);
    writeFileSync(join(dir, "huge.yaml"), `${VALID}${"  - name: x\n".repeat(600_000)}`);
    const result = await load(dir);
    expect(result.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/larger than 5 MB/)]);
    expect(result.projects).toEqual([]);
  });

  it("ends a walk through a folder linked into itself", async () => {
    const dir = join(root, "loop");
    mkdirSync(join(dir, "a"), { recursive: true });
    writeFileSync(join(dir, "a", "ok.yaml"), VALID);
    symlinkSync("..", join(dir, "a", "up"));
    const result = await load(dir);
    expect(result.files).toEqual(["a/ok.yaml"]);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("does not read a FIFO or an endless device named *.yaml inside a folder", async () => {
    const dir = join(root, "devices");
    mkdirSync(dir);
    writeFileSync(join(dir, "ok.yaml"), VALID);
    symlinkSync("/dev/zero", join(dir, "zero.yaml"));
    execFileSync("mkfifo", [join(dir, "fifo.yaml")]);
    const result = await load(dir);
    expect(result.files).toEqual(["ok.yaml"]);
    expect(result.diagnostics.map((d) => `${d.file}: ${d.message}`)).toEqual([
      "fifo.yaml: not a regular file (a FIFO): not read",
      "zero.yaml: link leads to /dev/zero; files under /proc, /sys and /dev are never read as configuration",
    ]);
  });

  it("refuses an endless device given by name", async () => {
    const result = await load(root, ["/dev/zero"]);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      "files under /proc, /sys and /dev are never read as configuration",
    ]);
  });
});
