/**
 * No install step: the committed bundle (dist-action/main.mjs) loads nothing but Node.js's own modules
 * (and the emulator package, only from the `emulator` command, which the action never runs: the bundle
 * carries none of the emulator), and the action runs from a folder holding only action.yml and dist-action/, with no node_modules in
 * it or above it, including the `yaml` library the config loader loads lazily. (CI checks separately
 * that the bundle is what the sources build: `npm run check:action`.)
 */

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { systemClock } from "posthog-gitops-shared/clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator.js";
import { act, KEY, ROOT } from "./harness.js";
import { loadAction } from "./runner.js";

const action = loadAction(join(ROOT, "action.yml"));
const BUNDLE = join(ROOT, action.runs.main);
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
};

// The action runs in a child process on the system clock, so the emulator does too.
const h = useEmulator({ apiKey: KEY, rateLimit: "none", clock: systemClock });
let dir: string;
let actionDir: string;
let workspace: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "posthog-gitops-bundle-"));
  actionDir = join(dir, "posthog-gitops");
  mkdirSync(actionDir);
  cpSync(join(ROOT, "action.yml"), join(actionDir, "action.yml"));
  cpSync(dirname(BUNDLE), join(actionDir, dirname(action.runs.main)), { recursive: true });
  workspace = join(dir, "repo");
  cpSync(join(ROOT, "test/fixtures/single-project/production"), join(workspace, "posthog"), {
    recursive: true,
  });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("the committed bundle", () => {
  it("loads only Node.js's own modules", () => {
    const source = readFileSync(BUNDLE, "utf8");
    const loaded = new Set<string>();
    // Static imports, dynamic imports and require calls; not code that ajv writes into strings.
    for (const m of source.matchAll(/^import [^;]*? from "([^"]+)";$/gm)) loaded.add(m[1] ?? "");
    for (const m of source.matchAll(/(?<![`'"\w.$])(?:__require|require|import)\("([^"]+)"\)/g))
      loaded.add(m[1] ?? "");
    // A package loaded lazily with createRequire would be looked for beside the bundle at run time.
    for (const m of source.matchAll(/createRequire\([^)]*\)\("([^".][^"]*)"\)/g)) loaded.add(m[1] ?? "");
    expect(loaded.size).toBeGreaterThan(10);
    const builtins = new Set([...builtinModules, "sqlite"]);
    const foreign = [...loaded].filter((name) => !builtins.has(name.replace(/^node:/, "")));
    expect(foreign).toEqual(["posthog-gitops-emulator"]);
    expect(source).toMatch(/^ {4}return await import\("posthog-gitops-emulator"\);$/m);
  });

  it("holds none of the emulator: its sources, its routes' messages, its control surface", () => {
    const source = readFileSync(BUNDLE, "utf8");
    expect(source).toContain("// packages/shared/src/clock.ts"); // the modules are named as they are bundled
    expect(source).not.toMatch(/^\/\/ (packages\/emulator|src\/emulator)\//m);
    expect(source).not.toContain("disallowed_host");
    expect(source).not.toContain("_emulator/requests");
  });

  it("carries the package's version and the licenses of what it bundles", () => {
    expect(readFileSync(BUNDLE, "utf8")).toContain(`"${pkg.version}"`);
    const licenses = readFileSync(join(dirname(BUNDLE), "licenses.txt"), "utf8");
    for (const name of Object.keys(pkg.dependencies)) {
      const listed = new RegExp(`^${name} \\d+\\.\\d+\\.\\d+ \\(`, "m");
      if (name === "posthog-gitops-emulator") expect(licenses, name).not.toMatch(listed);
      else expect(licenses, name).toMatch(listed);
    }
  });
});

describe("the action from a folder without node_modules", () => {
  it("has nothing to load packages from", () => {
    for (let folder = actionDir; folder !== dirname(folder); folder = dirname(folder)) {
      expect(existsSync(join(folder, "node_modules")), folder).toBe(false);
    }
  });

  it("validates, and reports a YAML error through the lazily loaded parser", async () => {
    const ok = await act({ dir, actionDir, workspace, inputs: { command: "validate" } });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(`Running posthog-gitops ${pkg.version}, bundled with the action, on Node.js`);

    const broken = join(workspace, "posthog/broken.yaml");
    writeFileSync(broken, "project: 12345\ndashboards:\n  - name: [unclosed\n");
    const bad = await act({ dir, actionDir, workspace, inputs: { command: "validate" } });
    rmSync(broken);
    expect(bad.code).toBe(1);
    expect(bad.commands).toContainEqual(
      expect.objectContaining({
        command: "error",
        properties: expect.objectContaining({ file: "posthog/broken.yaml" }),
      }),
    );
  });

  it("plans against the service", async () => {
    const r = await act({
      dir,
      actionDir,
      workspace,
      inputs: { command: "plan", host: h.url, "api-key": KEY },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ "has-changes": "true", destructive: "false" });
    expect(r.markdown.split("\n")[0]).toBe("<!-- posthog-gitops plan: 12345 -->");
  });
});
