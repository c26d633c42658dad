/**
 * The committed bundle (dist-action/main.mjs) run as a JavaScript action (runner.ts) against the
 * emulator: outputs, job summary, annotations, the markdown in the log with commands stopped, failures,
 * and no API key or secret anywhere a runner would show or keep (harness.ts checks every run).
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { systemClock } from "posthog-gitops-shared/clock";
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator.js";
import { gitRepo } from "../support/git-repo.js";
import { act, KEY, ROOT, type Run } from "./harness.js";
import { GITHUB_TOKEN } from "./runner.js";

const BOTH = "test/fixtures/single-project/production test/fixtures/single-project/staging";
const MARKER = "<!-- posthog-gitops plan: 12345,12346 -->";
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

// The action runs in a child process on the system clock, so the emulator does too.
const h = useEmulator({ apiKey: KEY, rateLimit: "none", clock: systemClock });

const run = (inputs: Record<string, string>, workspace?: string) =>
  act({
    dir: h.dir,
    inputs: { host: h.url, "api-key": KEY, ...inputs },
    ...(workspace ? { workspace } : {}),
  });

const commandsOf = (r: Run, name: string) => r.commands.filter((c) => c.command === name);

describe("the action against the emulator", () => {
  it("masks the API key and the GitHub token before it prints anything else", async () => {
    const r = await run({ command: "validate", paths: BOTH });
    expect(r.stdout.split("\n").slice(0, 2)).toEqual([`::add-mask::${KEY}`, `::add-mask::${GITHUB_TOKEN}`]);
    expect(r.masks).toEqual([KEY, GITHUB_TOKEN]);
    const node = process.env.ACTION_TEST_NODE
      ? execFileSync(process.env.ACTION_TEST_NODE, ["--version"], { encoding: "utf8" }).trim()
      : process.version;
    expect(r.stdout).toContain(
      `Running posthog-gitops ${VERSION}, bundled with the action, on Node.js ${node}.`,
    );
  });

  it("validate: checks the files offline and reports no changes", async () => {
    const r = await run({ command: "validate", paths: BOTH });
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs).toEqual({
      "has-changes": "false",
      destructive: "false",
      "plan-file": "",
      "markdown-file": "",
    });
    expect(await h.requests()).toEqual([]);
  });

  it("validate: a broken file is an error annotation at its line, and fails the step", async () => {
    const workspace = join(h.dir, "repo");
    cpSync(join(ROOT, "test/fixtures/single-project/production"), join(workspace, "posthog"), {
      recursive: true,
    });
    writeFileSync(
      join(workspace, "posthog/broken.yaml"),
      "project: 12345\ndashboards:\n  - name: [unclosed\n",
    );
    const r = await run({ command: "validate" }, workspace);
    expect(r.code).toBe(1);
    const errors = commandsOf(r, "error");
    expect(
      errors.some((e) => e.properties.file === "posthog/broken.yaml" && Number(e.properties.line) > 0),
    ).toBe(true);
    expect(r.outputs).toEqual({});
  });

  it("plan: sets the outputs, fills the job summary, annotates the files, shows the markdown inertly", async () => {
    const r = await run({ command: "plan", paths: BOTH });
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(r.outputs).sort()).toEqual([
      "destructive",
      "has-changes",
      "markdown-file",
      "plan-file",
    ]);
    expect(r.outputs["has-changes"]).toBe("true");
    expect(r.outputs.destructive).toBe("false");
    expect(r.outputs["plan-file"]?.startsWith(r.runnerTemp)).toBe(true);
    expect(JSON.parse(r.planJson).plan.summary).toMatchObject({ total: 32, destructive: false });
    expect(r.markdown.split("\n")[0]).toBe(MARKER);
    expect(r.summary.split(`${MARKER}\n`).length, "one plan in the job summary").toBe(2);
    expect(r.summary).toContain("**Plan: 18 to create");
    expect(r.stderr).toMatch(
      /^::notice file=test\/fixtures\/single-project\/production\/dashboards\.yaml,line=\d+,col=\d+::/m,
    );
    // The markdown sits in a group, between stop-commands and its token: nothing in it acts on the runner.
    expect(r.stdout).toMatch(
      /::group::Plan \(markdown\)\n::stop-commands::(\S+)\n<!-- posthog-gitops plan: [\s\S]*\n::\1::\n::endgroup::\n/,
    );
    expect(r.stdout).toContain(r.markdown.trimEnd());
    expect(r.commands.filter((c) => c.stream === "stdout").map((c) => c.command)).toEqual([
      "add-mask",
      "add-mask",
      "group",
      "stop-commands",
      "endgroup",
    ]);
    expect(new Set((await h.requests()).map((q) => q.method))).toEqual(new Set(["GET"]));
  });

  it("apply: applies the plan it showed; then nothing is left, until a change pauses an export", async () => {
    const workspace = join(h.dir, "repo");
    cpSync(join(ROOT, "test/fixtures/single-project/production"), join(workspace, "posthog"), {
      recursive: true,
    });
    const applied = await run({ command: "apply" }, workspace);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.outputs["has-changes"]).toBe("true");
    expect(applied.summary).toContain("<!-- posthog-gitops plan: 12345 -->");
    expect((await h.requests()).some((q) => q.method === "POST")).toBe(true);

    const again = await run({ command: "apply" }, workspace);
    expect(again.code, again.stderr).toBe(0);
    expect(again.outputs).toMatchObject({ "has-changes": "false", destructive: "false" });
    expect(again.stdout).toContain("No changes: nothing to apply.");

    const file = join(workspace, "posthog/batch-exports.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("paused: false", "paused: true"));
    const paused = await run({ command: "plan" }, workspace);
    expect(paused.outputs).toMatchObject({ "has-changes": "true", destructive: "true" });
    expect(paused.stderr).toMatch(/^::warning file=posthog\/batch-exports\.yaml,line=\d+,col=\d+::.*pause/m);
  });

  it("apply with changed-only: a merge applies its change and leaves an edit made in PostHog", async () => {
    const repo = gitRepo(join(h.dir, "repo"));
    cpSync(join(ROOT, "test/fixtures/single-project/production"), join(repo.dir, "posthog"), {
      recursive: true,
    });
    expect((await run({ command: "apply" }, repo.dir)).code).toBe(0);
    repo.commit("applied");
    // During an incident, someone pauses an export in PostHog; meanwhile a description changes in Git.
    const state = await h.state();
    const exportId = state.batch_exports.find((b: { name: string }) => b.name === "events-to-s3").id;
    expect((await h.api("POST", `/api/projects/12345/batch_exports/${exportId}/pause/`)).status).toBe(200);
    const file = join(repo.dir, "posthog/dashboards.yaml");
    const before = readFileSync(file, "utf8");
    const edited = before.replace(/description: .*/, "description: Revised in a pull request");
    expect(edited).not.toBe(before);
    writeFileSync(file, edited);
    const merged = await run({ command: "apply", base: "HEAD", "changed-only": "true" }, repo.dir);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.markdown).toContain("This plan covers only the change since `HEAD`: 1 of");
    expect(JSON.parse(merged.planJson).plan.scope).toMatchObject({
      read: "changes",
      base: "HEAD",
      planned: 1,
    });
    const paused = async () =>
      (await h.state()).batch_exports.find((b: { id: string }) => b.id === exportId).paused as boolean;
    expect(await paused()).toBe(true);
    // Started by hand, without changed-only: everything is applied, the pause reverted on purpose.
    expect((await run({ command: "apply" }, repo.dir)).code).toBe(0);
    expect(await paused()).toBe(false);
  });

  it("apply with changed-only refuses a plan that could not be scoped to the change, and applies nothing", async () => {
    const repo = gitRepo(join(h.dir, "repo"));
    cpSync(join(ROOT, "test/fixtures/single-project/production"), join(repo.dir, "posthog"), {
      recursive: true,
    });
    expect((await run({ command: "apply" }, repo.dir)).code).toBe(0);
    repo.commit("applied");
    const state = await h.state();
    const exportId = state.batch_exports.find((b: { name: string }) => b.name === "events-to-s3").id;
    expect((await h.api("POST", `/api/projects/12345/batch_exports/${exportId}/pause/`)).status).toBe(200);
    // A file's own settings change: the plan reads and plans everything (it says why).
    const file = join(repo.dir, "posthog/dashboards.yaml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace("project: 12345\n", "project: 12345\nvariables: [REGION]\n"),
    );
    await h.clearRequests();
    const refused = await run({ command: "apply", base: "HEAD", "changed-only": "true" }, repo.dir);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.planJson).plan.scope).toMatchObject({ read: "full" });
    const errors = commandsOf(refused, "error").map((c) => c.value);
    expect(errors).toContainEqual(
      expect.stringMatching(
        /^changed-only: the plan is not change-scoped \(`variables` of posthog\/dashboards\.yaml changed since HEAD\); nothing was applied\./,
      ),
    );
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("apply: a failed apply fails the step after showing the plan", async () => {
    const workspace = join(h.dir, "repo");
    cpSync(join(ROOT, "test/fixtures/single-project/production"), join(workspace, "posthog"), {
      recursive: true,
    });
    await h.faults({
      rules: [
        { method: "POST", status: 400 },
        { method: "PATCH", status: 400 },
      ],
    });
    const r = await run({ command: "apply" }, workspace);
    expect(r.code).toBe(1);
    expect(r.outputs["has-changes"]).toBe("true");
    expect(r.stdout).toContain("::group::Plan (markdown)");
  });

  it("prune: deleting undeclared objects makes the plan destructive", async () => {
    const r = await run({ command: "plan", paths: "test/fixtures/single-project/production", prune: "true" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ "has-changes": "true", destructive: "true" });
    expect(r.markdown).toContain("soft delete");
    expect(JSON.parse(r.planJson).plan.summary.destructive).toBe(true);
  });

  it("undeclared: lists, read-only, what no file declares, and that alone counts for has-changes", async () => {
    const secrets = { PRODUCTION_PROJECT_TOKEN: "phc_Ex7Lq2Vm9Rt4Kw", PRICING_PAYLOAD: "ExPrc7Lq2Vm9Rt" };
    const applied = await h.cli(
      ["apply", "--auto-approve", join(ROOT, "test/fixtures/single-project/production")],
      secrets,
    );
    expect(applied.code, applied.stderr).toBe(0);
    const quiet = await run({ command: "plan", paths: "test/fixtures/single-project/production" });
    expect(quiet.outputs["has-changes"]).toBe("false");
    const r = await run({
      command: "plan",
      paths: "test/fixtures/single-project/production",
      undeclared: "true",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ "has-changes": "true", destructive: "false" });
    expect(r.markdown).toMatch(/> \*\*\d+ live objects no file declares \(created in PostHog\?\)\*\*: /);
    expect(r.markdown).toContain("> - dashboard <b>Marketing Overview</b> (id 2) in project 12345");
    const plan = JSON.parse(r.planJson).plan;
    expect(plan.actions).toEqual([]);
    expect(plan.undeclared.map((o: { name: string }) => o.name)).toContain("Marketing Overview");
  });

  it("reads paths one per line, relative to working-directory", async () => {
    const r = await run({
      command: "plan",
      "working-directory": "test/fixtures/single-project",
      paths: "production\n  staging\n",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs["has-changes"]).toBe("true");
    expect(r.markdown.split("\n")[0]).toBe(MARKER);
  });

  it("reads one path with spaces when it ends its line", async () => {
    const workspace = join(h.dir, "repo");
    cpSync(join(ROOT, "test/fixtures/single-project/production"), join(workspace, "posthog config"), {
      recursive: true,
    });
    const r = await run({ command: "plan", paths: "posthog config\n" }, workspace);
    expect(r.code, r.stderr).toBe(0);
    expect(r.markdown.split("\n")[0]).toBe("<!-- posthog-gitops plan: 12345 -->");
  });

  it("keeps the job's own POSTHOG_* settings when the inputs are empty", async () => {
    const r = await act({
      dir: h.dir,
      inputs: { command: "plan", paths: "test/fixtures/single-project/production" },
      env: { POSTHOG_HOST: h.url, POSTHOG_API_KEY: KEY },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.masks).toEqual([GITHUB_TOKEN]);
    expect(r.outputs["has-changes"]).toBe("true");
  });

  it("a failed plan fails the step and leaves a markdown note for the comment, never the key", async () => {
    const r = await run({ command: "plan", paths: BOTH, "api-key": `${KEY}x` });
    expect(r.code).toBe(1);
    expect(r.outputs["plan-file"]).toBe("");
    expect(r.markdown).toBe(
      "### posthog-gitops plan failed\n\nThe plan could not be made (exit 1): see the [job log](https://github.com/acme/analytics-config/actions/runs/4242).\n",
    );
    expect(r.stderr).toContain("error:");
  });

  it("refuses unknown commands, prune values and working folders before running anything", async () => {
    const bad = await run({ command: "destroy", paths: BOTH });
    expect(bad.code).toBe(1);
    expect(commandsOf(bad, "error")).toEqual([
      expect.objectContaining({
        properties: { title: "posthog-gitops" },
        value: "input command must be validate, plan, apply or promote",
      }),
    ]);
    const prune = await run({ command: "plan", paths: BOTH, prune: "yes" });
    expect(prune.code).toBe(1);
    expect(commandsOf(prune, "error")[0]?.value).toBe("input prune must be true or false");
    const folder = await run({ command: "plan", paths: BOTH, "working-directory": "no/such/folder" });
    expect(folder.code).toBe(1);
    expect(commandsOf(folder, "error")[0]?.value).toContain(
      "working-directory: no/such/folder is not a folder",
    );
    for (const r of [bad, prune, folder]) expect(r.outputs).toEqual({});
    expect(await h.requests()).toEqual([]);
  });
});
