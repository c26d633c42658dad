/**
 * The packages' boundaries are the compiler's (TypeScript project references): the emulator package
 * builds from its own sources and the shared package's declarations only, the shared package from its
 * own alone. Each test copies the three source trees into a temporary folder laid out like the
 * repository, adds one import the wrong way, and runs the build (`tsc -b packages/emulator`, what
 * `npm run build` runs first): it must fail, naming the import. The copy without it builds.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
let copy = "";

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), "posthog-gitops-boundaries-"));
  for (const path of ["package.json", "tsconfig.base.json", "src"])
    cpSync(join(ROOT, path), join(copy, path), { recursive: true });
  for (const name of ["shared", "emulator"]) {
    for (const path of ["package.json", "tsconfig.json", "src"])
      cpSync(join(ROOT, "packages", name, path), join(copy, "packages", name, path), { recursive: true });
  }
  // What `npm ci` installs: the workspace packages (here linked to the copies), and the rest (the
  // packages' own dependencies, the type definitions) linked to the repository's.
  mkdirSync(join(copy, "node_modules"));
  const workspaces: Record<string, string> = {
    "posthog-gitops-shared": "packages/shared",
    "posthog-gitops-emulator": "packages/emulator",
  };
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    const own = workspaces[entry];
    symlinkSync(
      own ? join(copy, own) : join(ROOT, "node_modules", entry),
      join(copy, "node_modules", entry),
      "dir",
    );
  }
});
afterAll(() => {
  rmSync(copy, { recursive: true, force: true });
});

/** Builds the emulator (and the shared package it references) with `file` added, then removes it. */
function buildWith(file?: { path: string; text: string }) {
  if (file) writeFileSync(join(copy, file.path), file.text);
  try {
    const run = spawnSync(process.execPath, [TSC, "-b", "packages/emulator"], {
      cwd: copy,
      encoding: "utf8",
    });
    return { code: run.status, out: `${run.stdout}${run.stderr}` };
  } finally {
    if (file) rmSync(join(copy, file.path));
    rmSync(join(copy, "packages/shared/dist"), { recursive: true, force: true });
    rmSync(join(copy, "packages/emulator/dist"), { recursive: true, force: true });
  }
}

describe("an import the wrong way is a build error", () => {
  it("the copy as it is builds", () => {
    const built = buildWith();
    expect(built.out).toBe("");
    expect(built.code).toBe(0);
  });

  it("the emulator importing a file of the tool", () => {
    const built = buildWith({
      path: "packages/emulator/src/wrong.ts",
      text: 'import { plural } from "../../../src/words.js";\nexport const wrong = plural;\n',
    });
    expect(built.code).not.toBe(0);
    expect(built.out).toMatch(
      /packages\/emulator\/src\/wrong\.ts\(1,\d+\): error TS6059: File '.*\/src\/words\.ts' is not under 'rootDir'/,
    );
    expect(built.out).toMatch(
      /error TS6307: File '.*\/src\/words\.ts' is not listed within the file list of project/,
    );
  });

  it("the emulator importing the tool's package", () => {
    const built = buildWith({
      path: "packages/emulator/src/wrong.ts",
      text: 'import { loadConfig } from "posthog-gitops";\nexport const wrong = loadConfig;\n',
    });
    expect(built.code).not.toBe(0);
    expect(built.out).toContain(
      "packages/emulator/src/wrong.ts(1,28): error TS2307: Cannot find module 'posthog-gitops'",
    );
  });

  it("the shared package importing the emulator or the tool", () => {
    const emulator = buildWith({
      path: "packages/shared/src/wrong.ts",
      text: 'import { startEmulator } from "posthog-gitops-emulator";\nexport const wrong = startEmulator;\n',
    });
    expect(emulator.code).not.toBe(0);
    expect(emulator.out).toContain(
      "packages/shared/src/wrong.ts(1,31): error TS2307: Cannot find module 'posthog-gitops-emulator'",
    );
    const tool = buildWith({
      path: "packages/shared/src/wrong.ts",
      text: 'import { plural } from "../../../src/words.js";\nexport const wrong = plural;\n',
    });
    expect(tool.code).not.toBe(0);
    expect(tool.out).toMatch(/packages\/shared\/src\/wrong\.ts\(1,\d+\): error TS6059/);
  });
});
