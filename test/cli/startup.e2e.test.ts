/**
 * Start-up cost is decided by what a command's modules import before it runs. This walks the static
 * imports of the built files (dynamic `import()` is lazy and not followed) and checks that `--help`
 * loads no heavy module and that `validate`, which never touches the network, loads no HTTP client
 * and no emulator. Needs `npm run build` (`npm test` builds first).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
const STATIC = /^\s*(?:import|export)\s+(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm;

const SHARED_DIST = fileURLToPath(new URL("../../packages/shared/dist/", import.meta.url));

/** Every package and dist file reachable from `entry` (in `dist`) through static imports. */
function graph(entry: string, dist = DIST): { packages: Set<string>; files: Set<string> } {
  const packages = new Set<string>();
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(STATIC)) {
      if (!spec) continue;
      if (spec.startsWith(".")) visit(join(dirname(file), spec));
      else if (!spec.startsWith("node:"))
        packages.add(
          spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] ?? spec),
        );
    }
  };
  visit(join(dist, entry));
  return { packages, files: new Set([...files].map((f) => relative(dist, f))) };
}

describe("what each entry loads before it runs", () => {
  it("--help and --version: commander only, and the shared package's clock", () => {
    const { packages, files } = graph("cli.js");
    expect([...packages].sort()).toEqual(["commander", "posthog-gitops-shared"]);
    const clock = graph("clock.js", SHARED_DIST);
    expect([...clock.packages]).toEqual([]);
    expect([...clock.files]).toEqual(["clock.js"]);
    expect([...files].filter((f) => f.startsWith("commands/"))).toEqual([]);
  });

  it("validate: the loader and its schema, no HTTP client, no emulator", () => {
    // The walk does find the client where it belongs.
    expect(graph("commands/plan.js").packages).toContain("undici");
    const { packages, files } = graph("commands/validate.js");
    expect(packages).not.toContain("undici");
    expect(packages).not.toContain("posthog-gitops-emulator");
    expect([...files].filter((f) => f === "service/client.js")).toEqual([]);
  });

  it("validate of the examples loads no ajv compiler: the build's precompiled schema code serves it", () => {
    // ajv is loaded lazily (createRequire) where it is needed, so the static walk cannot see it; ask
    // the process itself which CommonJS modules it loaded by the time it exits.
    const hook = join(mkdtempSync(join(tmpdir(), "startup-")), "loaded.cjs");
    writeFileSync(
      hook,
      `process.on("exit", () => { process.stderr.write("\\nLOADED " + JSON.stringify(Object.keys(require.cache).filter((k) => k.includes("node_modules")))); });`,
    );
    const bin = fileURLToPath(new URL("../../bin/posthog-gitops.js", import.meta.url));
    const loaded = (args: string[]) => {
      const run = spawnSync(process.execPath, ["--require", hook, bin, ...args], {
        cwd: fileURLToPath(new URL("../..", import.meta.url)),
        env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
        encoding: "utf8",
      });
      const line = run.stderr.split("\n").find((l) => l.startsWith("LOADED "));
      return JSON.parse(line?.slice("LOADED ".length) ?? "null") as string[];
    };
    const validate = loaded(["validate", "examples"]);
    expect(validate.length).toBeGreaterThan(0); // yaml and commander are there: the hook works
    // The generated code needs one small runtime helper of ajv's (string length in code points); the
    // compiler, its code generator and the JSON Schema vocabularies stay unloaded.
    expect(validate.filter((k) => k.includes("/node_modules/ajv/"))).toEqual([
      expect.stringMatching(/\/node_modules\/ajv\/dist\/runtime\/ucs2length\.js$/),
    ]);
  });

  it("the library entry does not load the emulator (it has its own entry)", () => {
    expect(graph("index.js").packages).not.toContain("posthog-gitops-emulator");
    expect(graph("emulator.js").packages).toEqual(new Set(["posthog-gitops-emulator"]));
  });
});
