/**
 * The action's reference exists (issue 30): the docs tell workflows to `uses:` the major tag, which
 * `npm run release` (scripts/release.mjs) makes and moves; this repository has it, on a commit of its
 * own history, and the SHA-pinned form the README shows is the commit its release tag names. The
 * release script runs here in throwaway repositories, through every refusal.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GIT_ENV, gitRepo, type Repo } from "../support/git-repo.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const RELEASE = join(ROOT, "scripts/release.mjs");
const USES = /posthog-gitops\/posthog-gitops@([^\s"'`]+)(?:\s+#\s*(v[\d.]+))?/g;

function release(repo: Repo, ...args: string[]) {
  const out = spawnSync(process.execPath, [RELEASE, ...args], {
    cwd: repo.dir,
    encoding: "utf8",
    // HOME outside the repository: npm may write its logs there.
    env: { ...GIT_ENV, HOME: join(repo.dir, ".."), npm_config_update_notifier: "false" },
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** A package whose `check:action` passes unless the file `stale` exists (a bundle out of date). */
function packageJson(version: string) {
  return JSON.stringify({
    name: "posthog-gitops",
    version,
    scripts: { "check:action": "node -e \"process.exit(require('fs').existsSync('stale') ? 1 : 0)\"" },
  });
}

describe("npm run release", () => {
  let dir: string;
  let repo: Repo;
  const tag = (name: string) => {
    const out = spawnSync("git", ["rev-parse", "-q", "--verify", `refs/tags/${name}^{commit}`], {
      cwd: repo.dir,
      encoding: "utf8",
      env: GIT_ENV,
    });
    return out.status === 0 ? out.stdout.trim() : undefined;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "posthog-gitops-release-"));
    repo = gitRepo(join(dir, "repo"));
    repo.write("package.json", packageJson("1.2.3"));
    repo.commit("first");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("tags the version and makes the major tag, then prints the push commands and the pinned line", () => {
    const head = repo.git("rev-parse", "HEAD").trim();
    const out = release(repo);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(tag("v1.2.3")).toBe(head);
    expect(tag("v1")).toBe(head);
    expect(repo.git("cat-file", "-t", "refs/tags/v1.2.3").trim()).toBe("tag"); // annotated
    expect(out.stdout).toBe(
      [
        `released 1.2.3 at ${head}: v1.2.3 made, v1 made`,
        "push the tags: git push origin refs/tags/v1.2.3 && git push --force origin refs/tags/v1",
        "workflows use the action as:",
        "  uses: posthog-gitops/posthog-gitops@v1  # the newest 1.x release",
        `  uses: posthog-gitops/posthog-gitops@${head}  # v1.2.3, pinned to its commit`,
        "",
      ].join("\n"),
    );
    // Again at the same commit: nothing to do, nothing refused.
    const again = release(repo);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`v1.2.3 already there, v1 already there`);
  });

  it("moves the major tag forward to the next version, and never moves a version's tag", () => {
    const first = repo.git("rev-parse", "HEAD").trim();
    expect(release(repo).code).toBe(0);
    repo.write("README.md", "a fix\n");
    const second = repo.commit("a fix");
    const same = release(repo);
    expect(same.code).toBe(1);
    expect(same.stderr).toBe(
      `release refused: v1.2.3 already tags ${first.slice(0, 12)}: raise the version in package.json and commit it first\n`,
    );
    expect(tag("v1")).toBe(first);
    repo.write("package.json", packageJson("1.3.0"));
    const third = repo.commit("1.3.0");
    expect(third).not.toBe(second);
    const out = release(repo);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`v1.3.0 made, v1 moved from ${first.slice(0, 12)}`);
    expect(tag("v1.2.3")).toBe(first);
    expect(tag("v1.3.0")).toBe(third);
    expect(tag("v1")).toBe(third);
  });

  it("refuses a dirty tree, another branch, a stale action bundle and a major tag moving backwards", () => {
    repo.write("notes.txt", "not committed\n");
    expect(release(repo).stderr).toBe(
      "release refused: the working tree has changes: commit or stash them first\n",
    );
    repo.remove("notes.txt");

    repo.git("checkout", "-q", "-b", "topic");
    expect(release(repo).stderr).toBe(
      "release refused: HEAD is the branch topic, not main (--any-branch to release it anyway)\n",
    );
    repo.git("checkout", "-q", "main");

    repo.write("stale", "");
    repo.commit("bundle out of date");
    const stale = release(repo);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^release refused: the action bundle is not what the sources build/);
    repo.remove("stale");
    repo.commit("bundle rebuilt");

    // v1 already names a commit HEAD does not contain (a release made on another line).
    const base = repo.git("rev-parse", "HEAD").trim();
    repo.git("checkout", "-q", "-b", "other");
    repo.write("package.json", packageJson("1.9.0"));
    const other = repo.commit("1.9.0 elsewhere");
    expect(release(repo, "--any-branch").code).toBe(0);
    repo.git("checkout", "-q", "main");
    repo.write("package.json", packageJson("1.4.0"));
    repo.commit("1.4.0");
    const back = release(repo);
    expect(back.code).toBe(1);
    expect(back.stderr).toBe(
      `release refused: v1 names ${other.slice(0, 12)}, which HEAD does not contain: it would move backwards\n`,
    );
    expect(tag("v1")).toBe(other);
    expect(tag("v1.4.0")).toBeUndefined();
    expect(base).not.toBe(other);
  });

  it("pushes both tags with --push REMOTE; a prerelease moves no major tag", () => {
    const remote = join(dir, "remote.git");
    spawnSync("git", ["init", "-q", "--bare", remote], { env: GIT_ENV });
    const out = release(repo, "--push", remote);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`pushed v1.2.3 and v1 to ${remote}`);
    const remoteTags = spawnSync("git", ["ls-remote", "--tags", remote], {
      encoding: "utf8",
      env: GIT_ENV,
    }).stdout;
    expect(remoteTags).toMatch(/refs\/tags\/v1\n/);
    expect(remoteTags).toMatch(/refs\/tags\/v1\.2\.3\n/);

    repo.write("package.json", packageJson("2.0.0-rc.1"));
    const rc = repo.commit("2.0.0-rc.1");
    const pre = release(repo);
    expect(pre.code).toBe(0);
    expect(tag("v2.0.0-rc.1")).toBe(rc);
    expect(tag("v2")).toBeUndefined();
  });
});

describe("this repository", () => {
  const git = (...args: string[]) =>
    spawnSync("git", args, { cwd: ROOT, encoding: "utf8", env: GIT_ENV, timeout: 20_000 });
  /**
   * The repository's release tags (name → commit). A clone may come without them (`--no-tags`, or a
   * CI checkout of one branch): then they are read from the remote it was cloned from, and when that
   * has none either, `undefined` (the checks that need a tag say so and fall back to the history).
   */
  const releaseTags = (): Map<string, string> | undefined => {
    const fromLines = (text: string, pattern: RegExp) => {
      const tags = new Map<string, string>();
      for (const line of text.split("\n")) {
        const m = pattern.exec(line.trim());
        if (!m?.[1] || !m[2]) continue;
        const [, commit, name] = m;
        // An annotated tag: its peeled line (`^{}`) names the commit and wins over the tag object.
        if (name.endsWith("^{}")) tags.set(name.slice(0, -3), commit);
        else if (!tags.has(name)) tags.set(name, commit);
      }
      return tags;
    };
    const local = git(
      "for-each-ref",
      "--format=%(if)%(*objectname)%(then)%(*objectname)%(else)%(objectname)%(end) %(refname:short)",
      "refs/tags/v*",
    );
    const own = fromLines(local.stdout ?? "", /^([0-9a-f]{40}) (v\S+)$/);
    if (own.size > 0) return own;
    const remote = git("ls-remote", "--tags", "origin", "v*");
    const theirs = fromLines(remote.stdout ?? "", /^([0-9a-f]{40})\s+refs\/tags\/(v\S+)$/);
    return theirs.size > 0 ? theirs : undefined;
  };
  const tags = releaseTags();
  /** The package.json version at COMMIT, or undefined when this clone lacks that commit (a shallow one). */
  const versionAt = (commit: string) => {
    const out = git("show", `${commit}:package.json`);
    return out.status === 0 ? (JSON.parse(out.stdout).version as string) : undefined;
  };
  const inHistory = (commit: string) => git("merge-base", "--is-ancestor", commit, "HEAD").status === 0;
  const shallow = git("rev-parse", "--is-shallow-repository").stdout.trim() === "true";
  const workflows = join(ROOT, "examples/github/.github/workflows");
  const docs = [
    "README.md",
    "action.yml",
    ...readdirSync(workflows).map((name) => join("examples/github/.github/workflows", name)),
  ].map((path) => [path, readFileSync(join(ROOT, path), "utf8")] as const);
  const refs = docs.flatMap(([path, text]) =>
    [...text.matchAll(USES)].map((m) => ({ path, ref: m[1] ?? "", comment: m[2] })),
  );
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  const pinned = refs.filter((r) => r.path === "README.md" && /^[0-9a-f]{40}$/.test(r.ref));

  it("tells every `uses:` the current major tag, or a pinned commit", () => {
    const majors = refs.filter((r) => r.ref.startsWith("v"));
    expect(majors.length).toBeGreaterThanOrEqual(5); // README and every workflow step
    expect(new Set(majors.map((r) => r.ref))).toEqual(new Set([`v${version.split(".")[0]}`]));
    for (const { ref } of refs) expect(ref).toMatch(/^(v\d+|[0-9a-f]{40})$/);
  });

  it("has the tag the docs and example workflows tell users to `uses:`, in its own history", (ctx) => {
    if (!tags) {
      ctx.skip("this clone has no release tags and its remote shows none (a --no-tags checkout)");
      return;
    }
    if (shallow) {
      ctx.skip("this clone is shallow: the tagged commits are not in it");
      return;
    }
    for (const ref of new Set(refs.filter((r) => r.ref.startsWith("v")).map((r) => r.ref))) {
      const commit = tags.get(ref);
      expect(commit, `tag ${ref} (npm run release makes it)`).toBeDefined();
      expect(inHistory(commit ?? "")).toBe(true);
      // The commit the tag names is a release of that major version, and its version's tag names it too.
      const tagged = versionAt(commit ?? "") ?? "";
      expect(`v${tagged.split(".")[0]}`).toBe(ref);
      expect(tags.get(`v${tagged}`)).toBe(commit);
    }
  });

  it("shows the SHA-pinned form: a commit of its own history that is the release its comment names", () => {
    expect(pinned.length).toBeGreaterThan(0);
    for (const { ref, comment } of pinned) {
      expect(comment, "the pinned line names its release in a comment").toBeDefined();
      // Whatever the clone holds: the tag, when there are tags, names this commit...
      if (tags) expect(tags.get(comment ?? "")).toBe(ref);
      // ...and the commit, when the clone has history, is one of main's and carries that version.
      if (!shallow) {
        expect(inHistory(ref)).toBe(true);
        expect(`v${versionAt(ref)}`).toBe(comment);
      }
    }
  });

  it("describes the release process README names, as package.json runs it", () => {
    const readme = docs.find(([path]) => path === "README.md")?.[1] ?? "";
    expect(readme).toContain("`npm run release`");
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.release).toBe(
      "node scripts/release.mjs",
    );
  });
});
