/**
 * File discovery and reading (SPEC §8): only regular files reached from the given paths are read;
 * links leading outside them, anything under /proc, /sys or /dev, FIFOs, sockets and devices are
 * errors naming the path (never its content); sizes are capped per file and for the whole set.
 */
import { execFileSync } from "node:child_process";
import { statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import { formatDiagnostic } from "../../src/config/index.js";
import { MAX_FILE_BYTES, MAX_TOTAL_BYTES } from "../../src/config/read.js";
import { readBounded } from "../../src/config/read-bounded.js";
import { loadConfig } from "../../src/index.js";
import { dashboardsOf } from "../builders.js";
import { memoryIo } from "../support/io.js";
import { tree } from "./helpers.js";

const VALID = "project: 1\ndashboards: [{name: A}]\n";
const validate = (cwd: string, paths: string[]) => loadConfig(paths, { env: {}, cwd, mode: "validate" });
const formatted = async (cwd: string, paths: string[]) =>
  (await validate(cwd, paths)).diagnostics.map(formatDiagnostic);

describe("reading config folders", () => {
  it("reports a broken link named *.yaml as an error and still loads the other files", async () => {
    const root = tree({ "posthog/a.yaml": VALID });
    symlinkSync(join(root, "posthog/missing.yaml"), join(root, "posthog/gone.yaml"));
    const result = await validate(root, ["posthog"]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      "posthog/gone.yaml: error: cannot read file: broken link",
    ]);
    expect(dashboardsOf(result.projects[0]).map((d) => d.name)).toEqual(["A"]);
  });

  it("reports a link loop, and still follows a working link that stays inside the given folder", async () => {
    // The link's target sits in a dot-folder, which the walk itself skips: it is read once, by the link.
    const root = tree({ "posthog/.shared/b.yaml": "project: 1\ndashboards: [{name: B}]\n" });
    symlinkSync(join(root, "posthog/loop.yml"), join(root, "posthog/loop.yml"));
    symlinkSync(".shared/b.yaml", join(root, "posthog/b.yaml"));
    const result = await validate(root, ["posthog"]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      "posthog/loop.yml: error: cannot read file: link loop",
    ]);
    expect(result.files).toEqual(["posthog/b.yaml"]);
  });

  it("refuses a link to a file outside the given paths, naming the link, and reads it when its folder is given too", async () => {
    const root = tree({
      "posthog/a.yaml": VALID,
      "elsewhere/b.yaml": "project: 1\ndashboards: [{name: B}]\n",
    });
    symlinkSync(join(root, "elsewhere/b.yaml"), join(root, "posthog/b.yaml"));
    const result = await validate(root, ["posthog"]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      `posthog/b.yaml: error: link leads outside the given paths, to ${join(root, "elsewhere/b.yaml")}: not read`,
    ]);
    expect(result.files).toEqual(["posthog/a.yaml"]);
    // With `elsewhere` given as well, the link stays under a given path.
    const both = await validate(root, ["posthog", "elsewhere/b.yaml"]);
    expect(both.files).toEqual(["elsewhere/b.yaml", "posthog/a.yaml", "posthog/b.yaml"]);
  });

  it("takes a given path that is itself a link, and links inside it that lead into its real folder", async () => {
    const root = tree({ "real/a.yaml": VALID, "real/.x/b.yaml": "project: 1\ndashboards: [{name: B}]\n" });
    symlinkSync(join(root, "real"), join(root, "posthog"));
    symlinkSync(join(root, "real/.x/b.yaml"), join(root, "real/b.yaml"));
    const result = await validate(root, ["posthog"]);
    expect(result.diagnostics).toEqual([]);
    expect(result.files).toEqual(["posthog/a.yaml", "posthog/b.yaml"]);
  });

  it("never reads /proc/self/environ: not through a link in a folder, not given, not through a given link", async () => {
    const root = tree({ "posthog/a.yaml": VALID });
    symlinkSync("/proc/self/environ", join(root, "posthog/env.yaml"));
    symlinkSync("/proc/self/environ", join(root, "env.yaml"));
    const result = await validate(root, ["posthog", "/proc/self/environ", "env.yaml"]);
    const lines = result.diagnostics.map(formatDiagnostic);
    expect(lines).toEqual([
      // /proc/self is itself a link, to this process's folder.
      expect.stringMatching(/^\/proc\/self\/environ: error: link leads to \/proc\/\d+\/environ; files under/),
      expect.stringMatching(
        /^env\.yaml: error: link leads to \/proc\/\d+\/environ; files under \/proc, \/sys and \/dev are never read as configuration$/,
      ),
      expect.stringMatching(/^posthog\/env\.yaml: error: link leads to \/proc\/\d+\/environ; files under/),
    ]);
    expect(result.files).toEqual(["posthog/a.yaml"]);
    // Nothing of the environment reaches a message.
    expect(lines.join("\n")).not.toMatch(/PATH=|HOME=/);
    // `validate` fails through its normal diagnostics.
    const cli = memoryIo({}, root);
    expect(await main(["node", "posthog-gitops", "validate", "posthog"], cli.io.env, cli.io)).toBe(1);
    expect(cli.stdout + cli.stderr).toMatch(/posthog\/env\.yaml: error: link leads to \/proc\/\d+\/environ/);
    expect(cli.stderr + cli.stdout).not.toMatch(/PATH=|HOME=|internal error/);
  });

  it("refuses a link to /dev/zero, a FIFO and a socket named *.yaml, without opening them", async () => {
    const root = tree({ "posthog/a.yaml": VALID });
    symlinkSync("/dev/zero", join(root, "posthog/zero.yaml"));
    execFileSync("mkfifo", [join(root, "posthog/fifo.yaml")]);
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(root, "posthog/socket.yaml"), done));
    try {
      // A FIFO opened for reading would block until a writer comes: the test's timeout catches that.
      expect(await formatted(root, ["posthog", "posthog/fifo.yaml"])).toEqual([
        "posthog/fifo.yaml: error: not a regular file (a FIFO): not read",
        "posthog/fifo.yaml: error: not a regular file or folder (a FIFO): not read",
        "posthog/socket.yaml: error: not a regular file (a socket): not read",
        "posthog/zero.yaml: error: link leads to /dev/zero; files under /proc, /sys and /dev are never read as configuration",
      ]);
    } finally {
      await new Promise((done) => server.close(done));
    }
  }, 10_000);

  it("refuses a file over 5 MB, and stops at 50 MB for all files together", async () => {
    const big = `project: 1\n# ${"x".repeat(MAX_FILE_BYTES)}\n`;
    // Eleven files just under the per-file limit: the eleventh crosses the total.
    const near = `project: 1\n# ${"x".repeat(MAX_FILE_BYTES - 200)}\n`;
    const files: Record<string, string> = { "big/huge.yaml": big };
    for (let i = 0; i < 12; i++) files[`many/f${String(i).padStart(2, "0")}.yaml`] = near;
    const root = tree(files);
    expect(await formatted(root, ["big"])).toEqual([
      `big/huge.yaml: error: file is larger than 5 MB (${Buffer.byteLength(big)} bytes)`,
    ]);
    const result = await validate(root, ["many"]);
    expect(Math.floor(MAX_TOTAL_BYTES / Buffer.byteLength(near))).toBe(10);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      "many/f10.yaml: error: configuration files together are larger than 50 MB: this file and the 1 after it are not read",
    ]);
    expect(result.files).toHaveLength(10);
  }, 30_000);
});

describe("bounded reading", () => {
  it("reads a file whole, refuses one over the limit and one that is not the file discovery checked", async () => {
    const root = tree({ "a.yaml": "x".repeat(100), "b.yaml": "y" });
    const a = join(root, "a.yaml");
    const identity = statSync(a);
    const whole = await readBounded(a, 100, identity);
    expect(whole.ok && whole.bytes.length).toBe(100);
    expect(await readBounded(a, 99, identity)).toEqual({ ok: false, reason: "too-large", size: 100 });
    expect(await readBounded(join(root, "b.yaml"), 100, identity)).toEqual({ ok: false, reason: "changed" });
    // A file swapped for a link since discovery is not followed.
    writeFileSync(join(root, "c.txt"), "z");
    symlinkSync(join(root, "c.txt"), join(root, "link.yaml"));
    expect(await readBounded(join(root, "link.yaml"), 100, statSync(join(root, "c.txt")))).toEqual({
      ok: false,
      reason: "changed",
    });
  });
});
