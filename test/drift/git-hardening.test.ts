/**
 * Every git command `--base` runs is hardened (src/drift/git.ts): checked with a stand-in `git` on PATH
 * that records its arguments and environment, once as a git that knows `--no-lazy-fetch` (2.44 and
 * later) and once as one that does not (the 2.39 of this machine).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { systemGit } from "../../src/drift/git.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A folder with a `.git` folder, and a `git` that logs each call and answers like the real one. */
function standIn(knowsNoLazyFetch: boolean): { bin: string; work: string; log: () => string[][] } {
  dir = mkdtempSync(join(tmpdir(), "git-standin-"));
  const bin = join(dir, "bin");
  const work = join(dir, "work");
  mkdirSync(bin);
  mkdirSync(join(work, ".git"), { recursive: true });
  const logFile = join(dir, "log");
  writeFileSync(
    join(bin, "git"),
    `#!/bin/sh
printf '%s\\036' "$@" >> "${logFile}"
printf 'ENV GIT_NO_LAZY_FETCH=%s GIT_ALLOW_PROTOCOL=%s GIT_DIR=%s GIT_PAGER=%s\\036' "$GIT_NO_LAZY_FETCH" "$GIT_ALLOW_PROTOCOL" "$GIT_DIR" "$GIT_PAGER" >> "${logFile}"
printf '\\n' >> "${logFile}"
case " $* " in
  *" version "*) ${knowsNoLazyFetch ? "exit 0" : 'case "$1" in --no-lazy-fetch) exit 129;; esac; exit 0'} ;;
  *" --absolute-git-dir "*) printf '%s\\n%s\\n' "${work}/.git" "${work}"; exit 0 ;;
esac
exit 0
`,
  );
  chmodSync(join(bin, "git"), 0o755);
  const log = () =>
    readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split("\u001e").filter((a) => a !== ""));
  return { bin, work, log };
}

const env = (bin: string) => ({
  PATH: `${bin}:/usr/bin:/bin`,
  GIT_DIR: "/elsewhere",
  POSTHOG_API_KEY: "phx_x",
});

describe("the git --base runs", () => {
  it("runs every command hardened, pinned to the checked repository, and --no-lazy-fetch where git knows it", async () => {
    const { bin, work, log } = standIn(true);
    const git = systemGit(work, env(bin));
    await git(["ls-tree", "-r", "-z", "HEAD"]);
    await git(["show", "HEAD:./a.yaml", "--no-textconv", "--no-ext-diff"]);
    const calls = log();
    // The version probe, git's own answer about the repository, then the two commands.
    expect(calls.map((c) => c.find((a) => ["version", "rev-parse", "ls-tree", "show"].includes(a)))).toEqual([
      "version",
      "rev-parse",
      "ls-tree",
      "show",
    ]);
    for (const call of calls.slice(1)) {
      const args = call.join(" ");
      for (const option of [
        "--no-lazy-fetch",
        "--no-pager",
        "-c safe.bareRepository=explicit",
        "-c protocol.allow=never",
        "-c core.fsmonitor=false",
        "-c core.hooksPath=/dev/null",
        "-c diff.external=",
      ]) {
        expect(args).toContain(option);
      }
      expect(call.at(-1)).toContain("GIT_NO_LAZY_FETCH=1 GIT_ALLOW_PROTOCOL=none");
      expect(call.at(-1)).toContain("GIT_PAGER=cat");
    }
    // The inherited GIT_DIR is dropped; later commands are pinned to the repository found.
    expect(calls[1]?.at(-1)).toContain("GIT_DIR= ");
    expect(calls[2]?.at(-1)).toContain(`GIT_DIR=${work}/.git `);
  });

  it("leaves --no-lazy-fetch out for a git that does not know it (its variable still set)", async () => {
    const { bin, work, log } = standIn(false);
    await systemGit(work, env(bin))(["ls-tree", "-r", "-z", "HEAD"]);
    const last = log().at(-1) ?? [];
    expect(last).not.toContain("--no-lazy-fetch");
    expect(last).toContain("safe.bareRepository=explicit");
    expect(last.at(-1)).toContain("GIT_NO_LAZY_FETCH=1");
  });
});
