#!/usr/bin/env node
// The packages as a newcomer gets them from a fresh clone: copies the files git knows (tracked, and new
// ones not ignored: no dist/, nothing built) into an empty folder, packs the tool and the workspace
// packages it depends on there (`npm pack` builds first, through `prepack`), installs the tarballs
// together into an empty project with nothing fetched, as `npm install posthog-gitops` would with the packages published, then runs
// `npx posthog-gitops --version`, `npx posthog-gitops-emulator --version` and the library example of
// SPEC §7 there: start the emulator, load in-memory configuration, plan, render, apply, plan again
// (empty). The example's own output is checked, and the packages must print nothing of their own
// (stderr stays empty). Exit 1 with the reason otherwise. test/package/tarball.test.ts runs it.
//
// The tarballs' dependencies come from the clone's own node_modules (what `npm ci` installed there):
// the runtime ones the lock file lists are copied into the empty project, with their bin links as npm
// makes them, so `npm install --offline` finds every dependency installed and fetches nothing. npm's
// cache is never needed: after `npm ci` on a fresh machine it holds tarballs but no registry metadata,
// which an offline install of a dependency would ask for (ENOTCACHED). Only when the clone lacks one
// of them (a node_modules older than the lock file) is the install made online, from the registry.
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The workspace packages the tool depends on, in build order. */
const WORKSPACES = ["packages/shared", "packages/emulator"];
const work = mkdtempSync(join(tmpdir(), "posthog-gitops-tarball-"));
const env = {
  ...process.env,
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });

const EXAMPLE = `
import { applyPlan, createClient, loadConfig, makePlan, renderPlan } from "posthog-gitops";
import { startEmulator } from "posthog-gitops/emulator";

const text = "project: 12345\\ndashboards:\\n  - name: Tarball board\\n    description: from the packed package\\n";
const config = await loadConfig({ files: [{ path: "posthog/board.yaml", text }] });
if (!config.ok) throw new Error(JSON.stringify(config.diagnostics));
const emulator = await startEmulator({ port: 0 });
const client = createClient({ host: emulator.url, apiKey: "phx_emulator" });
try {
  const plan = await makePlan(config, client, { prune: false });
  console.log(renderPlan(plan, "markdown"));
  const result = await applyPlan(plan, client);
  console.log("applied:", result.ok, result.results.map((r) => r.action.action + ":" + r.outcome).join(","));
  const again = await makePlan(config, client);
  console.log("actions after apply:", again.actions.length);
} finally {
  await client.close();
  await emulator.close();
}
`;

/** What a clone would hold: the files git tracks and the new ones it does not ignore, as they are now. */
function freshCopy(to) {
  const listed = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root);
  for (const file of listed.split("\0").filter(Boolean)) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(root, file), join(to, file), { verbatimSymlinks: true });
  }
  // `npm ci` in the clone would install these; the build (prepack) needs the compiler from them. The
  // workspace packages are linked to the clone's own folders, as `npm ci` there would link them.
  mkdirSync(join(to, "node_modules"));
  const workspaces = new Map(
    WORKSPACES.map((folder) => [
      JSON.parse(readFileSync(join(to, folder, "package.json"), "utf8")).name,
      folder,
    ]),
  );
  for (const entry of readdirSync(join(root, "node_modules"))) {
    const own = workspaces.get(entry);
    symlinkSync(
      own ? join(to, own) : join(root, "node_modules", entry),
      join(to, "node_modules", entry),
      "dir",
    );
  }
}

/**
 * Copies the dependencies the package needs at run time from the clone's node_modules into `project`'s,
 * where the lock file places them, and links their commands in node_modules/.bin as npm does (npm
 * reinstalls a package whose bin link is missing). False when one of them is not installed in the clone.
 */
function copyRuntimeDependencies(project) {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  let complete = true;
  for (const [path, entry] of Object.entries(lock.packages)) {
    // Only what is installed under the root node_modules: the workspace folders are installed from
    // their own tarballs, and their links (`link: true`) are not packages.
    if (!path.startsWith("node_modules/") || entry.dev || entry.devOptional || entry.link) continue;
    const from = join(root, path);
    if (!existsSync(join(from, "package.json"))) {
      if (!entry.optional) complete = false; // an optional one for another platform is never there
      continue;
    }
    cpSync(from, join(project, path), { recursive: true, verbatimSymlinks: true });
    const { bin, name } = JSON.parse(readFileSync(join(from, "package.json"), "utf8"));
    const bins = typeof bin === "string" ? { [name.split("/").pop()]: bin } : (bin ?? {});
    const binDir = join(project, dirname(path), ".bin");
    for (const [command, target] of Object.entries(bins)) {
      mkdirSync(binDir, { recursive: true });
      const link = join(binDir, command);
      if (!existsSync(link)) symlinkSync(join("..", basename(path), target), link);
    }
  }
  return complete;
}

const problems = [];
try {
  const clone = join(work, "clone");
  freshCopy(clone);
  if (existsSync(join(clone, "dist"))) problems.push("the fresh copy already holds dist/");
  // The workspace packages first: each builds what the next one needs (shared, then the emulator).
  const pack = (folder) =>
    run("npm", ["pack", "--silent", "--pack-destination", work], join(clone, folder))
      .trim()
      .split("\n")
      .pop();
  const packages = WORKSPACES.map(pack);
  const tarball = pack(".");
  const needs = {
    [tarball]: ["dist/cli.js", "dist/index.js", "dist/index.d.ts", "dist/emulator.js"],
    [packages[0]]: ["dist/clock.js", "dist/queries/index.js"],
    [packages[1]]: ["dist/index.js", "dist/index.d.ts", "dist/cli.js", "bin/posthog-gitops-emulator.js"],
  };
  for (const [file, needed] of Object.entries(needs)) {
    const listing = run("tar", ["-tzf", join(work, file)], work).split("\n");
    for (const path of needed)
      if (!listing.includes(`package/${path}`)) problems.push(`${file} lacks ${path}`);
    if (listing.some((path) => path.includes(".tsbuildinfo")))
      problems.push(`${file} holds a build info file`);
  }
  const project = join(work, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "tarball-check", private: true, type: "module" }),
  );
  const offline = copyRuntimeDependencies(project);
  run(
    "npm",
    [
      "install",
      offline ? "--offline" : "--prefer-online",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...[tarball, ...packages].map((file) => join(work, file)),
    ],
    project,
  );
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  for (const bin of ["posthog-gitops", "posthog-gitops-emulator"]) {
    const cli = spawnSync("npx", ["--no-install", bin, "--version"], {
      cwd: project,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH,
        HOME: work,
        npm_config_update_notifier: "false",
        npm_config_offline: "true",
      },
    });
    if (cli.status !== 0 || cli.stdout.trim() !== version) {
      problems.push(
        `npx ${bin} --version gave exit ${cli.status}: ${(cli.stdout + cli.stderr).trim().slice(0, 300)}`,
      );
    }
  }
  writeFileSync(join(project, "example.mjs"), EXAMPLE);
  const out = spawnSync(process.execPath, ["example.mjs"], {
    cwd: project,
    encoding: "utf8",
    env: { PATH: process.env.PATH },
  });
  if (out.status !== 0) problems.push(`the example exited ${out.status}`);
  if (out.stderr !== "") problems.push(`the package printed on stderr: ${out.stderr.slice(0, 500)}`);
  if (!out.stdout.includes("posthog-gitops plan for project 12345"))
    problems.push("no markdown plan on stdout");
  if (!out.stdout.includes("applied: true create:ok")) problems.push("the apply did not succeed");
  if (!out.stdout.includes("actions after apply: 0")) problems.push("the second plan was not empty");
  if (problems.length > 0) {
    console.error(`tarball check failed: ${problems.join("; ")}\n--- example stdout ---\n${out.stdout}`);
    process.exitCode = 1;
  } else {
    console.log(
      `tarball check: ${[tarball, ...packages].join(", ")}, packed from a fresh copy, install into an empty project (dependencies from ${offline ? "the clone's node_modules" : "the registry"}); npx posthog-gitops --version, npx posthog-gitops-emulator --version and the SPEC §7 example work`,
    );
  }
} catch (error) {
  const detail = [error.stderr, error.stdout].filter(Boolean).join("\n").trim().slice(0, 1000);
  console.error(`tarball check failed: ${[...problems, error.message.split("\n")[0]].join("; ")}\n${detail}`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
