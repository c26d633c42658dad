import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run as runs } from "../../src/commands/runs.js";
import {
  type PartialState,
  POSTGRES_EXPORT_ID,
  PROJECT_ENV,
  S3_EXPORT_ID,
  useEmulator,
} from "../support/emulator.js";
import { validJson } from "../support/valid-json.js";

const h = useEmulator({ env: PROJECT_ENV });

/** A temporary folder with `posthog/<file>` holding `yaml`. */
function configDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "ops-resolve-"));
  mkdirSync(join(dir, "posthog"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "posthog", name), text);
  return dir;
}

const exportsOf = (doc: { export: { id: string; project: number } }) => doc.export;

describe("NAME resolution", () => {
  it("uses a file's id pin (a renamed export still resolves) and its project", async () => {
    const dir = configDir({
      "prod.yaml": `project: 12345\nbatch_exports:\n  - name: events-archive\n    id: ${S3_EXPORT_ID}\n`,
    });
    await h.clearRequests();
    const out = await h.run(
      runs,
      { args: ["events-archive"], format: "json", limit: "1" },
      { cwd: dir, env: { POSTHOG_PROJECT_ID: undefined } },
    );
    expect(out.stderr).not.toContain("error");
    expect(exportsOf(validJson("runs", out.stdout))).toMatchObject({
      id: S3_EXPORT_ID,
      project: 12345,
      name: "Events to S3",
    });
    // Pinned: one GET of the export, no list walk.
    const gets = (await h.requests()).map((r) => r.path);
    expect(gets.filter((p) => p.endsWith("/batch_exports/"))).toEqual([]);
  });

  it("falls back to the live list by name, and takes an id as NAME", async () => {
    const byName = await h.run(runs, { args: ["Persons to Postgres"], format: "json", since: "-30d" });
    expect(exportsOf(validJson("runs", byName.stdout)).id).toBe(POSTGRES_EXPORT_ID);
    const byId = await h.run(runs, { args: [POSTGRES_EXPORT_ID], format: "json", since: "-30d" });
    expect(exportsOf(validJson("runs", byId.stdout)).id).toBe(POSTGRES_EXPORT_ID);
  });

  it("follows the files' projects like plan: several projects need --config, and --project cannot overrule a file", async () => {
    const dir = configDir({
      "a.yaml": "project: 12345\nbatch_exports:\n  - name: Events to S3\n",
      "b.yaml": "project: 12346\nbatch_exports:\n  - name: Events to S3\n",
    });
    const out = await h.run(
      runs,
      { args: ["Events to S3"] },
      { cwd: dir, env: { POSTHOG_PROJECT_ID: undefined } },
    );
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      'error: "Events to S3" is declared in projects 12345, 12346: point --config at one project\'s files\n',
    );
    const overruled = await h.run(runs, { args: ["Events to S3"], project: "12345" }, { cwd: dir });
    expect(overruled.code).toBe(1);
    expect(overruled.stderr).toContain(
      "posthog/b.yaml:1:10: error: this file is for project 12346 but --project 12345 was given",
    );
    expect(overruled.stderr).toMatch(/error: the configuration has 1 error; nothing was sent\n$/);
    const picked = await h.run(
      runs,
      { args: ["Events to S3"], config: "posthog/a.yaml", format: "json", limit: "1" },
      { cwd: dir },
    );
    expect(exportsOf(validJson("runs", picked.stdout)).id).toBe(S3_EXPORT_ID);
  });

  it("refuses an ambiguous live name, naming the ids", async () => {
    await h.reseed<PartialState>((state) => {
      state.batch_exports?.push({
        id: "0190f1d2-7b4e-7c3a-9d1f-0000000e0077",
        team_id: 12345,
        name: "Events to S3",
        destination: { type: "NoOp", config: {} },
      });
    });
    const out = await h.run(runs, { args: ["Events to S3"] });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /^error: 2 batch exports are named "Events to S3" in project 12345 \(ids .*0000000e0077.*\): pass the id instead\n$/,
    );
  });

  it("needs a project from somewhere, and a NAME", async () => {
    const none = await h.run(runs, { args: ["Events to S3"] }, { env: { POSTHOG_PROJECT_ID: undefined } });
    expect(none.stderr).toBe(
      "error: no project: pass --project, set POSTHOG_PROJECT_ID, or point --config at files with `project:`\n",
    );
    const bad = await h.run(runs, { args: ["Events to S3"], project: "prod" });
    expect(bad.stderr).toContain('--project must be a project id (a positive integer), got "prod"');
    const noName = await h.run(runs, { args: [] });
    expect(noName.code).toBe(1);
    expect(noName.stderr).toBe("error: give the batch export's NAME (or its id)\n");
  });

  it("stops on broken files like plan does, before any request", async () => {
    const dir = configDir({
      "broken.yaml": "project: 12345\nbatch_exports:\n  - name: x\n    interval: fortnightly\n",
    });
    await h.clearRequests();
    const out = await h.run(runs, { args: ["Events to S3"], format: "json", limit: "1" }, { cwd: dir });
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toMatch(/^posthog\/broken\.yaml:4:15: error: /);
    expect(out.stderr).toMatch(/error: the configuration has 1 error; nothing was sent\n$/);
    expect(await h.requests()).toEqual([]);
  });
});
