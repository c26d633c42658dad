/**
 * Every example folder applies against the emulator in its default mode (the newest service's rules)
 * with zero refused requests in its log, and plans nothing afterwards, without a warning; the export
 * the service migrated from legacy S3 is declared in its migrated form, and the old form still plans
 * as that export with a warning naming the form to declare instead. The example workflows pass exactly
 * the environment variables the examples read.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT, useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });
const SECRETS = {
  PRODUCTION_PROJECT_TOKEN: "phc_Ex7Lq2Vm9Rt4Kw",
  PRICING_PAYLOAD: "ExPrc7Lq2Vm9Rt",
};
const folders = readdirSync(join(ROOT, "examples"), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== "github")
  .map((d) => join(ROOT, "examples", d.name));

describe("examples/ against the default (newest) emulator", () => {
  it("has the two environments", () => {
    expect(folders.map((f) => f.split("/").pop()).sort()).toEqual(["production", "staging"]);
  });

  it.each(folders)("%s validates, applies with no 4xx answer, and then plans nothing", async (folder) => {
    const validate = await h.cli(["validate", folder], SECRETS);
    expect(validate.stderr).not.toMatch(/error/);
    expect(validate.code).toBe(0);
    await h.clearRequests();
    const apply = await h.cli(["apply", "--auto-approve", folder], SECRETS);
    expect(apply.stdout).not.toContain("✗");
    expect(apply.code).toBe(0);
    const plan = await h.cli(["plan", "--detailed-exitcode", folder], SECRETS);
    expect(plan.stdout).toContain("No changes");
    expect(plan.code).toBe(0);
    const refused = (await h.requests()).filter((r) => r.status >= 400);
    expect(refused).toEqual([]);
    // Weekly KPIs shows the three insights of insights.yaml and a text card, where the file puts them.
    const project = folder.endsWith("production") ? 12345 : 12346;
    const kpis = (await h.state()).dashboards.find(
      (d: { name: string; team_id: number; deleted: boolean }) =>
        d.name === "Weekly KPIs" && d.team_id === project && !d.deleted,
    );
    const shown = await h.api("GET", `/api/projects/${project}/dashboards/${kpis.id}/`);
    expect(
      shown.body.tiles.map((t: { insight: { name: string } | null; text: { body: string } | null }) =>
        t.insight ? t.insight.name : t.text?.body.split("\n")[0],
      ),
    ).toEqual(["Weekly signups", "Activation funnel", "Weekly retention", "## How to read this"]);
  });

  it("the examples plan with no warning against the seed: the migrated export in its migrated form", async () => {
    const plan = await h.cli(["plan", ...folders], SECRETS);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).not.toMatch(/warning|Events to S3/);
    expect(plan.stderr).toBe("");
  });

  it("the legacy S3 form of that export plans as the AwsS3 export the service migrated, with the form to use", async () => {
    h.write(
      "legacy/b.yaml",
      [
        "project: 12345",
        "batch_exports:",
        "  - name: Events to S3",
        "    model: events",
        "    interval: hour",
        "    destination:",
        "      type: S3",
        "      config:",
        "        bucket_name: acme-events",
        "        region: us-east-1",
        "        prefix: posthog/events/",
        "        file_format: Parquet",
        "        compression: zstd",
        "        aws_access_key_id: ${AWS_ACCESS_KEY_ID}",
        "        aws_secret_access_key: ${AWS_SECRET_ACCESS_KEY}",
        "",
      ].join("\n"),
    );
    const keys = {
      AWS_ACCESS_KEY_ID: "AKIAEXAMPLES00000000",
      AWS_SECRET_ACCESS_KEY: "ExAws+Sk/4Rm9Tq2Wz",
    };
    const plan = await h.cli(["plan", "--detailed-exitcode", "legacy"], keys);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(
      /warning: declared as a legacy S3 export with inline keys, but the service migrated it to AwsS3 with integration 1[^\n]*declare destination: \{type: AwsS3, integration: 1, config: \{bucket_name: acme-events,/,
    );
    const migrated = readFileSync(join(ROOT, "examples/production/batch-exports.yaml"), "utf8");
    expect(migrated).toMatch(/- name: Events to S3\n[^-]*type: AwsS3\n\s+integration: 1/);
  });
});

/** Every `${NAME}` the files read from the environment, and the names listed under `variables:`. */
function namesRead(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    for (const m of value.matchAll(/(\$*)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
      if ((m[1] ?? "").length % 2 === 0) into.add(m[2] ?? ""); // `$${` is a literal
    }
  } else if (Array.isArray(value)) for (const item of value) namesRead(item, into);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "variables" && Array.isArray(item)) for (const name of item) into.add(String(name));
      else namesRead(item, into);
    }
  }
  return into;
}

/** The `env:` keys of the workflow's posthog-gitops step. */
function stepEnv(workflow: string): string[] {
  const doc = parse(readFileSync(join(ROOT, "examples/github/.github/workflows", workflow), "utf8"));
  const steps = Object.values(doc.jobs as Record<string, { steps: { uses?: string; env?: object }[] }>)
    .flatMap((job) => job.steps)
    .filter((step) => step.uses?.startsWith("posthog-gitops/posthog-gitops@"));
  expect(steps.length, workflow).toBeGreaterThan(0);
  return [...new Set(steps.flatMap((step) => Object.keys(step.env ?? {})))].sort();
}

describe("the example workflows", () => {
  const files = folders.flatMap((folder) =>
    readdirSync(folder)
      .filter((f) => f.endsWith(".yaml"))
      .map((f) => join(folder, f)),
  );
  const read = [
    ...files.reduce((names, file) => namesRead(parse(readFileSync(file, "utf8")), names), new Set<string>()),
  ];

  it("apply.yml passes exactly the variables examples/ reads", () => {
    expect(read.length).toBeGreaterThan(0);
    expect(stepEnv("apply.yml")).toEqual(read.sort());
  });

  it("plan.yml and drift.yml pass only the non-secret `variables:` (plan needs no secret)", () => {
    const variables = files.flatMap(
      (file) => (parse(readFileSync(file, "utf8")).variables ?? []) as string[],
    );
    expect(stepEnv("plan.yml")).toEqual([...new Set(variables)].sort());
    expect(stepEnv("drift.yml")).toEqual([...new Set(variables)].sort());
  });
});
