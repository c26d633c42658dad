/**
 * No secret value and no API key in any output: every command, every format, --verbose, GitHub Actions
 * mode, saved plans, pulled files and error paths, with distinctive values grepped in all of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SEED_CREDENTIALS } from "posthog-gitops-emulator";
import { describe, expect, it } from "vitest";
import { type EmulatorHarness, KEY, type RunResult, useEmulator } from "../support/emulator.js";

const h = useEmulator();
const API_KEY = "phx_TESTKEY_zq9xKq81mWv3";
const SECRETS = {
  LEAK_SK: "SECRET_VALUE_zq9x_secret_key",
  LEAK_PG_USER: "SECRET_VALUE_zq9x_pg_user",
  LEAK_PG_PASSWORD: "SECRET_VALUE_zq9x_pg_pw",
};
const NEEDLES = [API_KEY, "zq9x", KEY, SEED_CREDENTIALS.s3SecretKey, SEED_CREDENTIALS.postgresPassword];

const CONFIG = `project: 12345
dashboards:
  - name: Product KPIs
    description: leak check
batch_exports:
  - name: Events to S3
    paused: true
    destination:
      type: AwsS3
      integration: 1
      config:
        bucket_name: acme-events
        region: us-east-1
        prefix: leak/
  - name: leak-http
    model: events
    interval: day
    destination:
      type: HTTP
      config:
        url: https://us.i.posthog.com/batch/
        token: \${LEAK_SK}
  # The sample export created before integrations: its inline credentials are the secrets here (next
  # to a postgresql integration the newest service refuses them on updates).
  - name: Persons to Postgres
    model: persons
    interval: day
    destination:
      type: Postgres
      config:
        host: db.example.com
        database: analytics
        table_name: persons
        user: \${LEAK_PG_USER}
        password: \${LEAK_PG_PASSWORD}
`;

/** Adds the distinctive key (every scope) to the emulator. */
async function addKey(e: EmulatorHarness) {
  const state = await e.state();
  state.api_keys.push({ key: API_KEY, user: 1, scopes: ["*"] });
  await e.seed(state);
}

function expectClean(label: string, text: string) {
  for (const needle of NEEDLES) {
    if (text.includes(needle)) throw new Error(`${label} contains ${needle}:\n${text}`);
  }
}

describe("no secret and no key in any output", () => {
  it("plan, apply, pull and validate in every format and mode", async () => {
    await addKey(h);
    h.write("p/all.yaml", CONFIG);
    const summary = join(h.dir, "summary.md");
    const env = { ...SECRETS, POSTHOG_API_KEY: API_KEY };
    const gha = { ...env, GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary };
    const runs: Array<[string, RunResult]> = [];
    const run = async (args: string[], extra: Record<string, string> = env) => {
      const result = await h.cli(args, extra);
      runs.push([args.join(" "), result]);
      return result;
    };
    await run(["validate", "p"]);
    await run(["validate", "--format", "json", "p"]);
    for (const format of ["text", "json", "markdown"]) {
      expect((await run(["plan", "--format", format, "--verbose", "--rotate-secrets", "p"])).code).toBe(0);
      expect((await run(["plan", "--format", format, "p"], gha)).code).toBe(0);
    }
    expect((await run(["plan", "--rotate-secrets", "--out", "saved.json", "p"])).code).toBe(0);
    expect((await run(["apply", "--auto-approve", "--verbose", "--plan", "saved.json"])).code).toBe(0);
    expect((await run(["apply", "--auto-approve", "--rotate-secrets", "--verbose", "p"], gha)).code).toBe(0);
    expect((await run(["pull", "--project", "12345", "--out", "pulled", "--verbose"])).code).toBe(0);
    expect((await run(["plan", "--detailed-exitcode", "--verbose", "pulled"])).code).toBe(0);

    // Error paths: a wrong key, a refused write, a missing secret.
    const wrongKey = await run(["plan", "p"], { ...env, POSTHOG_API_KEY: `${API_KEY}_wrong` });
    expect(wrongKey.code).toBe(1);
    await h.faults({
      rules: [
        { method: "PATCH", status: 400 },
        { method: "POST", status: 400 },
      ],
    });
    h.write(
      "p/all.yaml",
      CONFIG.replace("leak check", "leak check 2")
        .replace("prefix: leak/", "prefix: leak2/")
        .replace("table_name: persons", "table_name: persons2"),
    );
    expect((await run(["apply", "--auto-approve", "--verbose", "--rotate-secrets", "p"])).code).toBe(1);
    await h.faults({});
    const { LEAK_PG_PASSWORD: _, ...missing } = SECRETS;
    expect((await run(["apply", "--auto-approve", "p"], { ...missing, POSTHOG_API_KEY: API_KEY })).code).toBe(
      1,
    );

    for (const [label, result] of runs) {
      expectClean(`${label} stdout`, result.stdout);
      expectClean(`${label} stderr`, result.stderr);
    }
    expect(
      runs.some(
        ([, r]) => r.stderr.includes("(secret from $LEAK_SK)") || r.stdout.includes("(secret from $LEAK_SK)"),
      ),
    ).toBe(true);
    expectClean("saved plan", readFileSync(join(h.dir, "saved.json"), "utf8"));
    expectClean("step summary", readFileSync(summary, "utf8"));
    for (const f of readdirSync(join(h.dir, "pulled"))) {
      expectClean(`pulled ${f}`, readFileSync(join(h.dir, "pulled", f), "utf8"));
    }
    // The secrets did reach the service (so the checks above are not vacuous).
    const state = await h.state();
    const pg = state.batch_exports.find((b: { name: string }) => b.name === "Persons to Postgres");
    expect(pg.destination.config.password).toBe(SECRETS.LEAK_PG_PASSWORD);
    const http = state.batch_exports.find((b: { name: string }) => b.name === "leak-http");
    expect(http.destination.config.token).toBe(SECRETS.LEAK_SK);
    if (process.env.E2E_SHOW)
      for (const [l, r] of runs) process.stderr.write(`== ${l}\n${r.stdout}\n${r.stderr}\n`);
  });
});
