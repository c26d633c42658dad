/**
 * The examples are one set of files for two environments (examples/posthog: environments.yaml, shared/
 * and an overlay each for staging and production): against the emulator in its default mode (the
 * newest service's rules), seeded with two projects of different ids, each environment applied with
 * its own key (staging first, as `promote_from` orders them), with zero refused requests, and planned
 * empty afterwards, without a warning. The export the service migrated from legacy S3 is declared in
 * its migrated form, and the old form still plans as that export with a warning naming the form to
 * declare instead. The example workflows pass exactly the process variables the examples read.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT, useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });
const EXAMPLES = join(ROOT, "examples/posthog");
const SECRETS = {
  PRODUCTION_PROJECT_TOKEN: "phc_Ex7Lq2Vm9Rt4Kw",
  PRICING_PAYLOAD_PRODUCTION: "ExPrc7Lq2Vm9Rt",
};
/**
 * Each environment's key, in the variable its entry names; no POSTHOG_API_KEY at all. Like the seed's
 * `phx_emulator_staging` and `phx_emulator_production` (alice's), but made of no ordinary word, so the
 * leak scan can look for any piece of them.
 */
const KEYS = {
  POSTHOG_API_KEY: undefined,
  POSTHOG_API_KEY_STAGING: "phx_stg_Qv7Lm2Xk9Rt4Wz",
  POSTHOG_API_KEY_PRODUCTION: "phx_prd_Hw3Kx8Zp1Ns6Jd",
};

beforeEach(async () => {
  await h.reseed((state) => {
    state.api_keys.push(
      { key: KEYS.POSTHOG_API_KEY_STAGING, user: 1, scopes: ["*"] },
      { key: KEYS.POSTHOG_API_KEY_PRODUCTION, user: 1, scopes: ["*"] },
    );
  });
});

describe("examples/ against the default (newest) emulator", () => {
  it("is one shared set, an environments file and an overlay per environment", () => {
    const files = (dir: string) => readdirSync(join(EXAMPLES, dir)).sort();
    expect(files(".")).toEqual(["environments.yaml", "overlays", "shared"]);
    expect(files("overlays")).toEqual(["production.yaml", "staging.yaml"]);
    expect(files("shared")).toEqual([
      "actions.yaml",
      "batch-exports.yaml",
      "cohorts.yaml",
      "dashboards.yaml",
      "feature-flags.yaml",
      "insights.yaml",
    ]);
  });

  it("validates, applies both environments with their own keys and no 4xx answer, then plans nothing", async () => {
    const validate = await h.cli(["validate", EXAMPLES], {});
    expect(validate.stderr).toBe("9 files, 24 objects: valid\n");
    expect(validate.code).toBe(0);
    await h.clearRequests();
    const apply = await h.cli(["apply", "--all", "--auto-approve", EXAMPLES], { ...KEYS, ...SECRETS });
    expect(apply.stdout).not.toContain("✗");
    expect(apply.stderr).not.toMatch(/error/);
    expect(apply.code).toBe(0);
    // staging first (production is promoted from it), each under its own heading.
    expect(apply.stdout.indexOf("Environment staging")).toBeLessThan(
      apply.stdout.indexOf("Environment production"),
    );
    const plan = await h.cli(["plan", "--detailed-exitcode", EXAMPLES], { ...KEYS, ...SECRETS });
    expect(plan.stdout).toContain("2 environments: staging no changes; production no changes.");
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    const refused = (await h.requests()).filter((r) => r.status >= 400);
    expect(refused).toEqual([]);
    // The same names, different ids: each project has its own Weekly KPIs, showing the three insights
    // of insights.yaml and a text card, where the shared file puts them.
    const state = await h.state();
    const kpis = state.dashboards.filter(
      (d: { name: string; deleted: boolean }) => d.name === "Weekly KPIs" && !d.deleted,
    );
    expect(kpis.map((d: { team_id: number }) => d.team_id).sort()).toEqual([12345, 12346]);
    expect(new Set(kpis.map((d: { id: number }) => d.id)).size).toBe(2);
    for (const d of kpis) {
      const shown = await h.api("GET", `/api/projects/${d.team_id}/dashboards/${d.id}/`);
      expect(
        shown.body.tiles.map((t: { insight: { name: string } | null; text: { body: string } | null }) =>
          t.insight ? t.insight.name : t.text?.body.split("\n")[0],
        ),
      ).toEqual(["Weekly signups", "Activation funnel", "Weekly retention", "## How to read this"]);
    }
    // What the overlays and variables made different: rollouts (numbers), buckets, intervals.
    const flag = (team: number) =>
      state.feature_flags.find(
        (f: { key: string; team_id: number }) => f.key === "new-checkout" && f.team_id === team,
      );
    expect(flag(12346).filters.groups[1].rollout_percentage).toBe(50);
    expect(flag(12345).filters.groups[1].rollout_percentage).toBe(30);
    const s3 = (team: number) =>
      state.batch_exports.find(
        (e: { name: string; team_id: number }) => e.name === "events-to-s3" && e.team_id === team,
      );
    expect([s3(12346).interval, s3(12346).destination.config.bucket_name]).toEqual([
      "day",
      "acme-analytics-staging",
    ]);
    expect([s3(12345).interval, s3(12345).destination.config.bucket_name]).toEqual([
      "hour",
      "acme-analytics",
    ]);
    expect(s3(12345).destination.config.file_format).toBe("Parquet");
    expect(s3(12346).destination.config.file_format ?? null).not.toBe("Parquet");
  });

  it("the legacy S3 form of the migrated export plans as the AwsS3 export the service made, with the form to use", async () => {
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
    const migrated = readFileSync(join(EXAMPLES, "overlays/production.yaml"), "utf8");
    expect(migrated).toMatch(/- name: Events to S3\n[^-]*type: AwsS3\n\s+integration: 1/);
  });
});

/** Every secret `${NAME}` the files read from the process, as each environment maps it. */
function secretsRead(): string[] {
  const declaration = parse(readFileSync(join(EXAMPLES, "environments.yaml"), "utf8")) as {
    environments: Record<string, { secrets?: Record<string, string>; api_key_env?: string }>;
  };
  const overlays: Record<string, string> = {
    staging: "overlays/staging.yaml",
    production: "overlays/production.yaml",
  };
  const read = new Set<string>();
  for (const [name, entry] of Object.entries(declaration.environments)) {
    const files = ["shared/batch-exports.yaml", "shared/feature-flags.yaml", overlays[name] ?? ""];
    for (const file of files) {
      for (const text of strings(parse(readFileSync(join(EXAMPLES, file), "utf8")))) {
        for (const m of text.matchAll(/(\$*)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
          const variable = m[2] ?? "";
          // `$${` is a literal; a non-secret reference reads the environment's variables, not the process.
          if ((m[1] ?? "").length % 2 === 1 || Object.hasOwn(environmentVariables(name), variable)) continue;
          read.add(entry.secrets?.[variable] ?? variable);
        }
      }
    }
  }
  return [...read].sort();
}

/** Every string value of parsed YAML (comments are not values). */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

function environmentVariables(name: string): Record<string, unknown> {
  const declaration = parse(readFileSync(join(EXAMPLES, "environments.yaml"), "utf8"));
  return declaration.environments[name].variables ?? {};
}

/** The `env:` keys of the workflow's posthog-gitops steps (each job may apply one environment). */
function stepEnv(workflow: string): string[] {
  const doc = parse(readFileSync(join(ROOT, "examples/github/.github/workflows", workflow), "utf8"));
  const steps = Object.values(doc.jobs as Record<string, { steps: { uses?: string; env?: object }[] }>)
    .flatMap((job) => job.steps)
    .filter((step) => step.uses?.startsWith("posthog-gitops/posthog-gitops@"));
  expect(steps.length, workflow).toBeGreaterThan(0);
  return [...new Set(steps.flatMap((step) => Object.keys(step.env ?? {})))].sort();
}

describe("the example workflows", () => {
  it("apply.yml passes exactly the secret variables the environments read", () => {
    const read = secretsRead();
    expect(read).toEqual(["PRICING_PAYLOAD_PRODUCTION", "PRODUCTION_PROJECT_TOKEN"]);
    expect(stepEnv("apply.yml")).toEqual(read);
  });

  it("plan.yml and drift.yml pass no variable: plan needs no secret, and the variables are in the files", () => {
    expect(stepEnv("plan.yml")).toEqual([]);
    expect(stepEnv("drift.yml")).toEqual([]);
  });
});
