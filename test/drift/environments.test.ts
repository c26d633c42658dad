/**
 * The change from REF per environment (SPEC §9), read from a real git repository: a shared file's
 * change touches every environment it serves, an overlay's its own, single-project files beside them
 * their project's; and REF's files are read with `git show` only where their blob differs from the
 * working tree's (an unchanged file costs no git command), with the same results as reading them all.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { type EnvironmentChange, environmentChanges } from "../../src/drift/environments.js";
import { type GitRunner, resolveBase, systemGit } from "../../src/drift/index.js";
import { KINDS } from "../../src/kinds/index.js";
import { GIT_ENV, gitRepo, type Repo } from "../support/git-repo.js";

let repo: Repo;
let calls: string[][];

beforeEach(() => {
  repo = gitRepo(mkdtempSync(join(tmpdir(), "phgo-env-changes-")));
  calls = [];
  repo.write(
    "posthog/environments.yaml",
    "environments:\n  staging: {project: 12346, variables: {WORDS: staging words}}\n  production: {project: 12345, variables: {WORDS: production words}}\n",
  );
  repo.write(
    "posthog/shared/dashboards.yaml",
    "environments: all\ndashboards:\n  - name: KPIs\n    description: ${WORDS}\n  - name: Funnels\n",
  );
  repo.write("posthog/shared/flags.yaml", "environments: all\nfeature_flags:\n  - key: checkout\n");
  repo.write(
    "posthog/overlays/staging.yaml",
    "overlay: staging\ndashboards:\n  - name: KPIs\n    pinned: true\n",
  );
  repo.write(
    "posthog/overlays/production.yaml",
    "overlay: production\ndashboards:\n  - name: Funnels\n    tags: [a]\n",
  );
  repo.write("posthog/other/team.yaml", "project: 777\ndashboards:\n  - name: Team board\n");
  repo.commit("base");
});
afterEach(() => rmSync(repo.dir, { recursive: true, force: true }));

/** Each section's change since the last commit, in words; `everyBlob` makes every file look changed. */
async function changes(everyBlob = false): Promise<Record<string, string[] | string>> {
  const desired = await loadConfig(["posthog"], { env: {}, cwd: repo.dir, kinds: KINDS, mode: "plan" });
  expect(desired.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const system = systemGit(repo.dir, GIT_ENV);
  const git: GitRunner = (args) => {
    calls.push([...args]);
    return system(args);
  };
  const commit = await resolveBase(git, "HEAD", repo.dir);
  const found = await environmentChanges({
    kinds: KINDS,
    base: "HEAD",
    commit,
    git,
    cwd: repo.dir,
    paths: [],
    desired,
    load: { env: {} },
    ...(everyBlob ? { readBytes: async () => new Uint8Array([0]) } : {}),
  });
  const words = (change: EnvironmentChange) =>
    "full" in change
      ? change.full
      : [
          ...[...change.changed].map(([d, how]) => `${d.kind} ${d.name}: ${how}`),
          ...change.removed.map((r) => `${r.kind} ${r.name}: removed`),
        ].sort();
  return Object.fromEntries([...found].map(([name, change]) => [name, words(change)]));
}

const shown = () => calls.filter((c) => c[0] === "show").map((c) => c[1]?.replace(/^[0-9a-f]+:/, ""));

describe("the change since REF, per environment and per project of single-project files", () => {
  it("nothing changed: no file is read at REF", async () => {
    expect(await changes()).toEqual({ staging: [], production: [], "project 777": [] });
    expect(shown()).toEqual([]);
    // Besides resolving REF, one listing of its tree and nothing else.
    expect(calls.map((c) => c[0]).filter((c) => c !== "rev-parse")).toEqual(["ls-tree"]);
  });

  it("an overlay's change is its environment's; only that file is read at REF", async () => {
    repo.write(
      "posthog/overlays/production.yaml",
      "overlay: production\ndashboards:\n  - name: Funnels\n    tags: [b]\n",
    );
    expect(await changes()).toEqual({
      staging: [],
      production: ["dashboard Funnels: modified"],
      "project 777": [],
    });
    expect(shown()).toEqual(["./posthog/overlays/production.yaml"]);
  });

  it("a shared file's change is every environment's; a removed file is read at REF, a new one is not", async () => {
    repo.write(
      "posthog/shared/dashboards.yaml",
      "environments: all\ndashboards:\n  - name: KPIs\n    description: ${WORDS}\n  - name: Funnels\n  - name: Retention\n",
    );
    repo.remove("posthog/shared/flags.yaml");
    repo.write("posthog/shared/more.yaml", "environments: [staging]\ninsights: []\n");
    const found = await changes();
    expect(found).toEqual({
      staging: ["dashboard Retention: added", "feature_flag checkout: removed"],
      production: ["dashboard Retention: added", "feature_flag checkout: removed"],
      "project 777": [],
    });
    expect(shown().sort()).toEqual(["./posthog/shared/dashboards.yaml", "./posthog/shared/flags.yaml"]);
  });

  it("single-project files' change is their project's; an entry's change reads its environment whole", async () => {
    repo.write(
      "posthog/other/team.yaml",
      "project: 777\ndashboards:\n  - name: Team board\n    pinned: true\n",
    );
    repo.write(
      "posthog/environments.yaml",
      "environments:\n  staging: {project: 12346, variables: {WORDS: new words}}\n  production: {project: 12345, variables: {WORDS: production words}}\n",
    );
    expect(await changes()).toEqual({
      staging: "the entry of environment staging changed since HEAD",
      production: [],
      "project 777": ["dashboard Team board: modified"],
    });
    expect(shown().sort()).toEqual(["./posthog/environments.yaml", "./posthog/other/team.yaml"]);
  });

  it("the same results as reading every file at REF", async () => {
    repo.write(
      "posthog/overlays/staging.yaml",
      "overlay: staging\ndashboards:\n  - name: KPIs\n    pinned: false\n",
    );
    repo.write(
      "posthog/shared/flags.yaml",
      "environments: all\nfeature_flags:\n  - key: checkout\n    active: false\n",
    );
    const few = await changes();
    const fewShown = shown().length;
    calls = [];
    const all = await changes(true);
    expect(all).toEqual(few);
    expect(fewShown).toBe(2);
    expect(shown()).toHaveLength(6);
  });
});
