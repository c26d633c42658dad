/**
 * Drift detection with an injected git: which actions are drift, what the plan records, and the one
 * clear error for each way --base cannot be honoured. No repository, no network.
 */
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { type GitRunner, labelDrift, resolveBase } from "../../src/drift/index.js";
import { lastModified } from "../../src/plan/modified.js";
import type { Action, LiveProject } from "../../src/plan/types.js";
import { act, at, batchExport, buildPlan, dashboard } from "../render/fixtures.js";

const SHA = "a".repeat(40);
const KINDS = [
  { name: "dashboard", key: "dashboards" },
  { name: "batch_export", key: "batch_exports" },
];

/** A git that knows one commit holding `files` (paths relative to the command's folder). */
function fakeGit(files: Record<string, string>, calls: string[][] = []): GitRunner {
  return async (args) => {
    calls.push([...args]);
    const [cmd] = args;
    if (cmd === "rev-parse" && args[1] === "--show-toplevel")
      return { code: 0, stdout: "/repo\n", stderr: "" };
    if (cmd === "rev-parse") {
      return args[3] === "HEAD^{commit}"
        ? { code: 0, stdout: `${SHA}\n`, stderr: "" }
        : { code: 1, stdout: "", stderr: "" };
    }
    if (cmd === "show") {
      const path = args[1]!.slice(SHA.length + 1).replace(/^\.\//, "");
      if (path.startsWith("../"))
        return { code: 128, stdout: "", stderr: `fatal: '${path}' is outside repository at '/repo'` };
      const text = files[path];
      return text === undefined
        ? { code: 128, stdout: "", stderr: `fatal: path '${path}' exists on disk, but not in '${SHA}'` }
        : { code: 0, stdout: text, stderr: "" };
    }
    if (cmd === "ls-tree") {
      const entries = Object.keys(files).map((path) => `100644 blob ${"b".repeat(40)}\t${path}`);
      return { code: 0, stdout: entries.join("\0"), stderr: "" };
    }
    return { code: 2, stdout: "", stderr: "unexpected" };
  };
}

const NOW_FILE = [
  "project: 12345",
  "dashboards:",
  "  - name: Same",
  "    description: unchanged # a comment added",
  "  - name: Edited",
  "    description: new words",
  "batch_exports:",
  "  - name: Export",
  "    paused: false",
  "",
].join("\n");
const BASE_FILE = [
  "project: 12345",
  "dashboards:",
  "  - name: Edited",
  "    description: old words",
  "  - name: Same",
  "    description: unchanged",
  "batch_exports:",
  "  - name: Export",
  "    paused: false",
  "",
].join("\n");

const LIVE: LiveProject[] = [
  {
    project: 12345,
    kinds: {
      batch_export: {
        objects: [
          {
            id: "e-1",
            name: "Export",
            last_updated_at: "2026-11-20T09:30:00.000Z",
            last_modified_by: { uuid: "AB-12", email: "x@y" },
          } as never,
        ],
      },
    },
  },
];

function options(files: Record<string, string>, now: Record<string, string> = { "p/d.yaml": NOW_FILE }) {
  return {
    kinds: KINDS,
    base: "HEAD",
    git: fakeGit(files),
    cwd: "/repo",
    paths: ["p"],
    live: LIVE,
    readText: async (absolute: string) => {
      const text = now[relative("/repo", absolute)];
      if (text === undefined) throw new Error("ENOENT");
      return text;
    },
  };
}

const plan = () =>
  buildPlan([
    act("update", dashboard("Same", { id: 1, ...at("p/d.yaml", 3, 5) }), { before: {}, after: {} }),
    act("update", dashboard("Edited", { id: 2, ...at("p/d.yaml", 5, 5) }), { before: {}, after: {} }),
    act("unpause", batchExport("Export", { id: "e-1", ...at("p/d.yaml", 8, 5) }), { before: {}, after: {} }),
    act("soft_delete", dashboard("Hand made", { id: 3 }), { before: { name: "Hand made" } }),
    act("soft_delete", dashboard("Removed here", { id: 4 }), { before: { name: "Removed here" } }),
  ]);

describe("labelDrift", () => {
  it("labels what the service changed, never what the files changed, and records the base", async () => {
    const base = BASE_FILE.replace("dashboards:\n", "dashboards:\n  - name: Removed here\n");
    const labelled = await labelDrift(plan(), options({ "p/d.yaml": base }));
    const drift = Object.fromEntries(labelled.actions.map((a: Action) => [a.object.name, a.drift === true]));
    expect(drift).toEqual({
      Same: true,
      Edited: false,
      Export: true,
      "Hand made": true,
      "Removed here": false,
    });
    expect(labelled.base).toBe("HEAD");
    const exported = labelled.actions.find((a) => a.object.name === "Export");
    expect(exported?.modified).toEqual({ at: "2026-11-20T09:30:00.000Z", by: "ab-12" });
    expect(labelled.actions.find((a) => a.object.name === "Same")?.modified).toBeUndefined();
  });

  it("a file's own settings count: a changed project: makes none of its objects drift", async () => {
    const labelled = await labelDrift(plan(), options({ "p/d.yaml": BASE_FILE.replace("12345", "999") }));
    expect(labelled.actions.filter((a) => a.object.source && a.drift)).toEqual([]);
  });

  it("a file absent at the base (new in this change) holds no drift", async () => {
    const labelled = await labelDrift(plan(), options({}));
    expect(labelled.actions.filter((a) => a.object.source && a.drift)).toEqual([]);
  });

  it("a pinned id finds the item at the base across a rename", async () => {
    const now = "project: 1\ndashboards:\n  - name: New name\n    id: 9\n";
    const before = "project: 1\ndashboards:\n  - name: Old name\n    id: 9\n";
    const renamed = buildPlan([
      act("update", dashboard("New name", { id: 9, ...at("p/d.yaml", 3, 5) }), { before: {}, after: {} }),
    ]);
    const labelled = await labelDrift(renamed, options({ "p/d.yaml": before }, { "p/d.yaml": now }));
    expect(labelled.actions[0]?.drift).toBeUndefined();
    const same = await labelDrift(renamed, options({ "p/d.yaml": now }, { "p/d.yaml": now }));
    expect(same.actions[0]?.drift).toBe(true);
  });

  it("refuses a file outside the repository", async () => {
    const outside = buildPlan([
      act("update", dashboard("X", { id: 1, ...at("../elsewhere/d.yaml", 3, 5) }), { before: {}, after: {} }),
    ]);
    await expect(labelDrift(outside, options({}, { "../elsewhere/d.yaml": NOW_FILE }))).rejects.toThrow(
      "--base: ../elsewhere/d.yaml is outside the git repository",
    );
  });
});

describe("resolveBase", () => {
  it("gives the commit, or one clear error", async () => {
    expect(await resolveBase(fakeGit({}), "HEAD", "/repo")).toBe(SHA);
    await expect(resolveBase(fakeGit({}), "main", "/repo")).rejects.toThrow(
      "--base main: git does not know this revision here (in a shallow clone, fetch it first",
    );
    await expect(resolveBase(fakeGit({}), "--upload-pack=x", "/repo")).rejects.toThrow(
      "is not a git revision",
    );
    const notRepo: GitRunner = async () => ({ code: 128, stdout: "", stderr: "fatal: not a git repository" });
    await expect(resolveBase(notRepo, "HEAD", "/tmp/x")).rejects.toThrow(
      "--base needs a git repository, and /tmp/x is not in one",
    );
  });
});

describe("lastModified", () => {
  it("reads the service's modification fields, and nothing for a kind without them", () => {
    const action = act("update", batchExport("Export", { id: "e-1" }));
    expect(lastModified(action, LIVE)).toEqual({ at: "2026-11-20T09:30:00.000Z", by: "ab-12" });
    expect(lastModified(act("update", dashboard("D", { id: 5 })), LIVE)).toBeUndefined();
  });
});
