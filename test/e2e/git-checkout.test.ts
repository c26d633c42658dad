/**
 * `--base` runs git in a pull request's checkout, so git must obey nothing the checkout holds (SPEC §8):
 * a configuration folder committed with the layout of a bare repository (HEAD, config, objects/,
 * refs/), whose config names commands through a lazy-fetch `ext::` remote, fsmonitor, hooks and a
 * pager, runs none of them; the plan falls back to the full read saying why, `apply --changed-only`
 * refuses, and a `.git` file pointing inside the checkout is refused alike. A worktree's `.git` file,
 * which points outside its checkout, is the repository it names.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator.js";
import { GIT_ENV, gitRepo, type Repo } from "../support/git-repo.js";

const h = useEmulator();
const DASHBOARDS = "project: 12345\ndashboards:\n  - name: Product KPIs\n";

/** Where a command the checkout names would leave its mark. */
const marks = () => ["ext-ran", "fsmonitor-ran", "hook-ran", "pager-ran"].map((m) => join(h.dir, m));

/** A repository layout's config that runs a command from every place git could take one. */
function hostileConfig(): string {
  const [ext, fsmonitor, hook, pager] = marks();
  return `[core]
	repositoryformatversion = 1
	bare = false
	worktree = ..
	fsmonitor = "touch ${fsmonitor}"
	hooksPath = hooks
	pager = "touch ${pager}; cat"
[extensions]
	partialClone = origin
[remote "origin"]
	url = "ext::sh -c touch% ${ext}"
	promisor = true
	fetch = +refs/heads/*:refs/remotes/origin/*
[protocol "ext"]
	allow = always
[diff]
	external = "touch ${hook}"
`;
}

/** A bare repository's files under `dir` of the checkout, its refs naming an object it does not hold. */
function writeLayout(repo: Repo, dir: string): void {
  repo.write(`${dir}/HEAD`, "ref: refs/heads/main\n");
  repo.write(`${dir}/config`, hostileConfig());
  repo.write(`${dir}/refs/heads/main`, `${"1".repeat(40)}\n`);
  repo.write(`${dir}/objects/info/alternates`, "");
  for (const hook of ["pre-commit", "post-checkout", "reference-transaction", "pre-auto-gc"]) {
    repo.write(`${dir}/hooks/${hook}`, `#!/bin/sh\ntouch ${marks()[2]}\n`);
  }
}

function expectNothingRan(): void {
  for (const mark of marks())
    expect(existsSync(mark), `${mark} exists: the checkout ran a command`).toBe(false);
}

/** The dashboards committed on main, then the layout committed in the configuration folder. */
function setUp(): Repo {
  const repo = gitRepo(h.dir);
  repo.write("posthog/dashboards.yaml", DASHBOARDS);
  repo.commit("dashboards");
  writeLayout(repo, "posthog");
  repo.write("posthog/dashboards.yaml", `${DASHBOARDS}    description: changed\n`);
  repo.commit("the change, and a repository's layout");
  return repo;
}

const inConfig = { cwd: "posthog" };

describe("--base in a checkout that holds a bare repository's layout", () => {
  it("plan --changed-only runs nothing the checkout names and reads everything, saying why", async () => {
    setUp();
    const plan = await h.cli(["plan", "--base", "main", "--changed-only", "."], GIT_ENV, inConfig);
    expectNothingRan();
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("laid out like a bare git repository (HEAD, objects/, refs/)");
    expect(plan.stdout).toContain("description");
  });

  it("apply --changed-only refuses; plan --base alone fails with the reason", async () => {
    setUp();
    const apply = await h.cli(
      ["apply", "--base", "main", "--changed-only", "--auto-approve", "."],
      GIT_ENV,
      inConfig,
    );
    expectNothingRan();
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain("laid out like a bare git repository");
    expect(apply.stderr).toContain("apply --changed-only applies nothing it cannot tell");
    const plan = await h.cli(["plan", "--base", "HEAD~1", "."], GIT_ENV, inConfig);
    expectNothingRan();
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/^error: --base: .*posthog is laid out like a bare git repository/);
    expect(plan.stderr).not.toMatch(/\n\s+at /);
  });

  it("a .git file pointing inside the checkout is refused; git never reads the folder it names", async () => {
    const repo = setUp();
    // Not something git checks out (it refuses `.git` paths), but a checkout made otherwise may hold it.
    mkdirSync(join(h.dir, "posthog/nested"), { recursive: true });
    writeFileSync(join(h.dir, "posthog/nested/.git"), "gitdir: ../../evil\n");
    writeLayout(repo, "evil");
    writeFileSync(join(h.dir, "posthog/nested/flags.yaml"), "project: 12345\n");
    const plan = await h.cli(["plan", "--base", "main", "--changed-only", "."], GIT_ENV, {
      cwd: "posthog/nested",
    });
    expectNothingRan();
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(".git points inside the checkout (evil)");
  });

  it("from the work tree's root the same change is read from git as usual, and nothing runs", async () => {
    setUp();
    const plan = await h.cli(["plan", "--base", "main~1", "--changed-only", "posthog"], GIT_ENV);
    expectNothingRan();
    expect(plan.code).toBe(0);
    expect(plan.stdout).not.toContain("bare git repository");
    expect(plan.stdout).toContain("description");
  });

  it("a worktree's .git file, pointing outside its checkout, names the repository --base reads", async () => {
    const repo = gitRepo(join(h.dir, "main"));
    repo.write("posthog/dashboards.yaml", DASHBOARDS);
    repo.commit("dashboards");
    repo.git("worktree", "add", "-q", "-b", "change", "../tree");
    writeFileSync(join(h.dir, "tree/posthog/dashboards.yaml"), `${DASHBOARDS}    description: changed\n`);
    const plan = await h.cli(["plan", "--base", "main", "--changed-only", "posthog"], GIT_ENV, {
      cwd: "tree",
    });
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    expect(plan.stdout).not.toContain("every declaration");
    expect(plan.stdout).toContain("description");
  });
});
