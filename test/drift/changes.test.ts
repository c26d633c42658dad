/**
 * The change from REF to the working tree, in declarations, read from a real git repository: added,
 * modified, tombstoned and removed declarations, renames by pin and by name, what never counts as a
 * change (comments, layout, set order, a file moved), and each reason to read the whole project.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { changesSince } from "../../src/drift/changes.js";
import { type GitRunner, resolveBase, systemGit } from "../../src/drift/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { GIT_ENV, gitRepo, type Repo } from "../support/git-repo.js";

let repo: Repo;
let calls: string[][];

beforeEach(() => {
  repo = gitRepo(mkdtempSync(join(tmpdir(), "phgo-changes-")));
  calls = [];
});
afterEach(() => rmSync(repo.dir, { recursive: true, force: true }));

/** The change from `base` (default: the last commit) to the working tree, in words. */
async function change(
  base = "HEAD",
  env: Record<string, string> = {},
): Promise<{ changed: string[]; removed: string[]; unsure?: string }> {
  const desired = await loadConfig(["posthog"], { env, cwd: repo.dir, kinds: KINDS, mode: "plan" });
  expect(desired.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const system = systemGit(repo.dir, GIT_ENV);
  const git: GitRunner = (args) => {
    calls.push([...args]);
    return system(args);
  };
  const commit = await resolveBase(git, base, repo.dir);
  const set = await changesSince({
    kinds: KINDS,
    base,
    commit,
    git,
    cwd: repo.dir,
    paths: [],
    desired,
    load: { env },
  });
  return {
    ...(set.unsure !== undefined ? { unsure: set.unsure } : {}),
    changed: [...set.changed]
      .map(([d, how]) => `${d.kind} ${d.name}${d.id ? ` #${d.id}` : ""}: ${how}`)
      .sort(),
    removed: set.removed
      .map((r) => `${r.kind} ${r.name}${r.id ? ` #${r.id}` : ""} (${r.source.file}:${r.source.line})`)
      .sort(),
  };
}

const file = (...lines: string[]) => `${["project: 12345", ...lines].join("\n")}\n`;

describe("the change since REF", () => {
  beforeEach(() => {
    repo.write(
      "posthog/a.yaml",
      file(
        "dashboards:",
        "  - name: Kept",
        "    description: same",
        "  - name: Edited",
        "    description: old",
        "  - name: Pinned",
        "    id: 42",
        "  - name: Dropped",
        "  - name: Old name",
        "  - name: To delete",
        "    tags: [a, b]",
      ),
    );
    repo.write("posthog/b.yaml", file("dashboards:", "  - name: Elsewhere"));
    repo.commit("base");
  });

  it("nothing, and no file read at REF, when the working tree is the commit", async () => {
    expect(await change()).toEqual({ changed: [], removed: [] });
    expect(calls.filter((c) => c[0] === "show")).toEqual([]);
  });

  it("added, modified, tombstoned, removed, renamed by pin and by name; comments and set order are no change", async () => {
    repo.write(
      "posthog/a.yaml",
      file(
        "dashboards:",
        "  - name: Kept # a comment, and another layout",
        "    description: 'same'",
        "  - name: Edited",
        "    description: new",
        "  - name: Renamed by pin",
        "    id: 42",
        "  - name: New name",
        "  - name: To delete",
        "    tags: [B, a]",
        "    deleted: true",
        "  - name: Brand new",
      ),
    );
    expect(await change()).toEqual({
      changed: [
        "dashboard Brand new: added",
        "dashboard Edited: modified",
        "dashboard New name: added",
        "dashboard Renamed by pin #42: modified",
        "dashboard To delete: tombstoned",
      ],
      removed: ["dashboard Dropped (posthog/a.yaml:9)", "dashboard Old name (posthog/a.yaml:10)"],
    });
    // Only the changed file was read at REF; b.yaml was hashed, not read.
    expect(calls.filter((c) => c[0] === "show").map((c) => c[1])).toEqual([
      expect.stringMatching(/:\.\/posthog\/a\.yaml$/),
    ]);
  });

  it("a declaration moved to another file, or a whole file moved, is no change", async () => {
    repo.remove("posthog/b.yaml");
    repo.write(
      "posthog/a.yaml",
      file(
        "dashboards:",
        "  - name: Elsewhere",
        "  - name: Kept",
        "    description: same",
        "  - name: Edited",
        "    description: old",
        "  - name: Pinned",
        "    id: 42",
        "  - name: Dropped",
        "  - name: Old name",
        "  - name: To delete",
        "    tags: [a, b]",
      ),
    );
    expect(await change()).toEqual({ changed: [], removed: [] });
    repo.commit();
    repo.write("posthog/moved/c.yaml", readFileSync(join(repo.dir, "posthog/a.yaml"), "utf8"));
    repo.remove("posthog/a.yaml");
    expect(await change()).toEqual({ changed: [], removed: [] });
  });

  it("a new file's declarations are added, a deleted file's removed, with their place at REF", async () => {
    repo.remove("posthog/b.yaml");
    repo.write(
      "posthog/exports.yaml",
      file(
        "batch_exports:",
        "  - name: nightly",
        "    model: events",
        "    interval: day",
        "    destination: {type: NoOp}",
      ),
    );
    expect(await change()).toEqual({
      changed: ["batch_export nightly: added"],
      removed: ["dashboard Elsewhere (posthog/b.yaml:3)"],
    });
  });

  it("compares what the loader makes: a variable's value counts, not its spelling", async () => {
    repo.write(
      "posthog/v.yaml",
      "project: 12345\nvariables: [ENVIRONMENT]\ndashboards:\n  - name: Board ${ENVIRONMENT}\n",
    );
    repo.commit();
    expect(await change("HEAD", { ENVIRONMENT: "prod" })).toEqual({ changed: [], removed: [] });
    repo.write(
      "posthog/v.yaml",
      "project: 12345\nvariables: [ENVIRONMENT]\ndashboards:\n  - name: Board prod\n",
    );
    expect(await change("HEAD", { ENVIRONMENT: "prod" })).toEqual({ changed: [], removed: [] });
    repo.write(
      "posthog/v.yaml",
      "project: 12345\nvariables: [ENVIRONMENT]\ndashboards:\n  - name: Board ${ENVIRONMENT}\n    pinned: true\n",
    );
    expect(await change("HEAD", { ENVIRONMENT: "prod" })).toEqual({
      changed: ["dashboard Board prod: modified"],
      removed: [],
    });
  });

  it("a rule across files holds at REF: a tile's insight declared in an unchanged file", async () => {
    repo.write(
      "posthog/insights.yaml",
      file(
        "insights:",
        "  - name: Signups",
        "    query: {kind: InsightVizNode, source: {kind: TrendsQuery, series: []}}",
      ),
    );
    repo.write(
      "posthog/b.yaml",
      file("dashboards:", "  - name: Elsewhere", "    tiles:", "      - insight: Signups"),
    );
    repo.commit();
    repo.write(
      "posthog/b.yaml",
      file(
        "dashboards:",
        "  - name: Elsewhere",
        "    description: now with words",
        "    tiles:",
        "      - insight: Signups",
      ),
    );
    expect(await change()).toEqual({ changed: ["dashboard Elsewhere: modified"], removed: [] });
  });

  it("two different pins are two objects, whatever their names", async () => {
    repo.write("posthog/b.yaml", file("dashboards:", "  - name: Elsewhere", "    id: 7"));
    repo.commit();
    repo.write("posthog/b.yaml", file("dashboards:", "  - name: Elsewhere", "    id: 8"));
    expect(await change()).toEqual({
      changed: ["dashboard Elsewhere #8: added"],
      removed: ["dashboard Elsewhere #7 (posthog/b.yaml:3)"],
    });
  });

  it("against an older REF: every commit since counts, as does what is not committed", async () => {
    const first = repo.git("rev-parse", "HEAD").trim();
    repo.write("posthog/b.yaml", file("dashboards:", "  - name: Elsewhere", "  - name: Second"));
    repo.commit();
    repo.write("posthog/c.yaml", file("dashboards:", "  - name: Untracked"));
    expect(await change(first)).toEqual({
      changed: ["dashboard Second: added", "dashboard Untracked: added"],
      removed: [],
    });
  });
});

describe("files whose change cannot be told declaration by declaration: all their declarations count", () => {
  beforeEach(() => {
    repo.write(
      "posthog/a.yaml",
      "project: 12345\nvariables: [ENVIRONMENT]\nignore:\n  dashboards: ['Gen *']\ndashboards:\n  - name: A\n  - name: B\n",
    );
    repo.write("posthog/other.yaml", "project: 12345\ndashboards:\n  - name: Untouched\n");
    repo.commit("base");
  });

  it.each([
    [
      "project",
      "project: 54321\nvariables: [ENVIRONMENT]\nignore:\n  dashboards: ['Gen *']\ndashboards:\n  - name: A\n  - name: B\n",
    ],
    [
      "variables",
      "project: 12345\nvariables: [ENVIRONMENT, REGION]\nignore:\n  dashboards: ['Gen *']\ndashboards:\n  - name: A\n  - name: B\n",
    ],
    [
      "ignore",
      "project: 12345\nvariables: [ENVIRONMENT]\nignore:\n  dashboards: ['Gen *', 'Tmp *']\ndashboards:\n  - name: A\n  - name: B\n",
    ],
  ])("a changed `%s` of a file", async (key, text) => {
    repo.write("posthog/a.yaml", text);
    const moved = key === "project";
    expect(await change()).toEqual({
      // Moved to another project, they are new there and gone from the old one.
      changed: moved
        ? ["dashboard A: added", "dashboard B: added"]
        : ["dashboard A: modified", "dashboard B: modified"],
      removed: moved ? ["dashboard A (posthog/a.yaml:6)", "dashboard B (posthog/a.yaml:7)"] : [],
      unsure: `\`${key}\` of posthog/a.yaml changed since HEAD`,
    });
  });

  it("a file that does not load at REF", async () => {
    repo.write("posthog/b.yaml", "project: 12345\ndashboards:\n  - name: [broken\n");
    repo.commit();
    repo.write("posthog/b.yaml", "project: 12345\ndashboards:\n  - name: Fixed\n");
    expect(await change()).toEqual({
      changed: ["dashboard Fixed: added"],
      removed: [],
      unsure: expect.stringMatching(/^posthog\/b\.yaml:\d+:\d+ does not load at HEAD: YAML syntax error/),
    });
  });

  it("a file that is a symbolic link at REF", async () => {
    // The loader skips dot-folders: the link is the only way to this file.
    repo.write("posthog/.source/real.yaml", "project: 12345\ndashboards:\n  - name: Linked\n");
    symlinkSync(".source/real.yaml", join(repo.dir, "posthog/linked.yaml"));
    repo.commit();
    repo.write("posthog/linked.yaml", "project: 12345\ndashboards:\n  - name: Linked\n  - name: More\n");
    expect(await change()).toEqual({
      changed: ["dashboard Linked: added", "dashboard More: added"],
      removed: [],
      unsure: "posthog/linked.yaml is a symbolic link at HEAD",
    });
  });
});
