#!/usr/bin/env node
// The release process README describes (`npm run release`): tags the commit checked out as the version
// in package.json, and moves the major version's tag to it, the one the docs tell workflows to `uses:`
// (`posthog-gitops/posthog-gitops@v0`). The version's tag (`v0.1.0`) is made once and never moved; it
// is also where pulled files find their published schema (src/version.ts).
//
// It refuses, with one line and exit 1, and tags nothing when: the working tree has changes, HEAD is
// not the branch `main` (`--any-branch` allows another), the action bundle is not what the sources
// build (`npm run check:action`: a tag must run what the code says), the version's tag already names
// another commit (raise the version first), or the major tag would move backwards.
//
//   node scripts/release.mjs [--any-branch] [--push REMOTE]
//
// Then it prints the push commands (or pushes both tags to REMOTE with `--push`) and the SHA-pinned
// `uses:` line of this release. It works on the repository around the current folder.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const REPOSITORY = "posthog-gitops/posthog-gitops";

class Refused extends Error {}

const args = process.argv.slice(2);
const anyBranch = args.includes("--any-branch");
const pushAt = args.indexOf("--push");
const remote = pushAt >= 0 ? args[pushAt + 1] : undefined;
const unknown = args.filter((arg, i) => arg !== "--any-branch" && arg !== "--push" && i !== pushAt + 1);

function git(...gitArgs) {
  return execFileSync("git", gitArgs, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The commit a tag names, or undefined when there is no such tag. */
function tagged(tag) {
  const out = spawnSync("git", ["rev-parse", "-q", "--verify", `refs/tags/${tag}^{commit}`], {
    encoding: "utf8",
  });
  return out.status === 0 ? out.stdout.trim() : undefined;
}

function release() {
  if (unknown.length > 0 || (pushAt >= 0 && !remote)) {
    throw new Refused(`usage: node scripts/release.mjs [--any-branch] [--push REMOTE]`);
  }
  const root = git("rev-parse", "--show-toplevel");
  process.chdir(root);
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const parts = /^(\d+)\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.exec(String(version));
  if (!parts) throw new Refused(`package.json's version ${JSON.stringify(version)} is not x.y.z`);
  const [, major, prerelease] = parts;
  const versionTag = `v${version}`;
  const majorTag = `v${major}`;

  if (git("status", "--porcelain") !== "") {
    throw new Refused("the working tree has changes: commit or stash them first");
  }
  const branch = spawnSync("git", ["symbolic-ref", "-q", "--short", "HEAD"], {
    encoding: "utf8",
  }).stdout.trim();
  if (branch !== "main" && !anyBranch) {
    throw new Refused(
      `HEAD is ${branch ? `the branch ${branch}` : "detached"}, not main (--any-branch to release it anyway)`,
    );
  }
  const head = git("rev-parse", "HEAD");
  const check = spawnSync("npm", ["run", "--silent", "check:action"], { encoding: "utf8" });
  if (check.status !== 0) {
    const why = `${check.stderr}${check.stdout}`.trim().split("\n")[0] ?? "";
    throw new Refused(`the action bundle is not what the sources build (npm run check:action): ${why}`);
  }
  const existing = tagged(versionTag);
  if (existing !== undefined && existing !== head) {
    throw new Refused(
      `${versionTag} already tags ${existing.slice(0, 12)}: raise the version in package.json and commit it first`,
    );
  }
  // A prerelease gets its own tag only: the major tag names the newest release.
  const movedFrom = prerelease ? undefined : tagged(majorTag);
  if (movedFrom !== undefined && movedFrom !== head) {
    const forward = spawnSync("git", ["merge-base", "--is-ancestor", movedFrom, head]).status === 0;
    if (!forward) {
      throw new Refused(
        `${majorTag} names ${movedFrom.slice(0, 12)}, which HEAD does not contain: it would move backwards`,
      );
    }
  }

  if (existing === undefined) git("tag", "-a", versionTag, "-m", `posthog-gitops ${version}`);
  if (!prerelease) git("tag", "-f", majorTag, head);
  const tags = prerelease ? [versionTag] : [versionTag, majorTag];
  const pushes = [
    `git push ${remote ?? "origin"} refs/tags/${versionTag}`,
    ...(prerelease ? [] : [`git push --force ${remote ?? "origin"} refs/tags/${majorTag}`]),
  ];
  if (remote) {
    git("push", "-q", remote, `refs/tags/${versionTag}`);
    if (!prerelease) git("push", "-q", "--force", remote, `refs/tags/${majorTag}`);
  }
  const majorNote = prerelease
    ? ""
    : movedFrom === undefined
      ? `, ${majorTag} made`
      : movedFrom === head
        ? `, ${majorTag} already there`
        : `, ${majorTag} moved from ${movedFrom.slice(0, 12)}`;
  console.log(
    [
      `released ${version} at ${head}: ${versionTag} ${existing === undefined ? "made" : "already there"}${majorNote}`,
      remote ? `pushed ${tags.join(" and ")} to ${remote}` : `push the tags: ${pushes.join(" && ")}`,
      "workflows use the action as:",
      ...(prerelease ? [] : [`  uses: ${REPOSITORY}@${majorTag}  # the newest ${major}.x release`]),
      `  uses: ${REPOSITORY}@${head}  # ${versionTag}, pinned to its commit`,
    ].join("\n"),
  );
}

try {
  release();
} catch (error) {
  if (!(error instanceof Refused)) {
    const detail = [error.stderr, error.message].filter(Boolean).join(" ").trim().split("\n")[0];
    console.error(`release failed: ${detail}`);
  } else console.error(`release refused: ${error.message}`);
  process.exitCode = 1;
}
