/**
 * Adoption: `pull` writes YAML from live state, and `plan --detailed-exitcode` on the pulled files exits
 * 0, on the default seed and on a seed of 500 objects (restricted dashboards with collaborators, shared
 * ones, exports of four destination types with secrets). Pulled files hold placeholders, never secrets.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SAMPLE_ENCRYPTED_PAYLOAD, SEED_CREDENTIALS } from "posthog-gitops-emulator";
import { describe, expect, it } from "vitest";
import { type EmulatorHarness, recordingProxy, useEmulator } from "../support/emulator.js";
import { bigSeed, SEED_SECRET } from "./seeds.js";

const h = useEmulator();

function pulledText(e: EmulatorHarness, dir: string): string {
  return readdirSync(join(e.dir, dir))
    .map((f) => readFileSync(join(e.dir, dir, f), "utf8"))
    .join("\n");
}

/** The `${NAME}` variables pull listed on stderr. */
function listedVariables(stderr: string): string[] {
  const line = stderr.split("\n").find((l) => l.includes("set these secret variables"));
  return line
    ? line
        .slice(line.indexOf(":") + 1)
        .split(",")
        .map((v) => v.trim())
    : [];
}

describe("pull then plan", () => {
  it("reports no changes on the default seed, for both projects", async () => {
    for (const project of ["12345", "12346"]) {
      const pull = await h.cli(["pull", "--project", project, "--out", `pulled-${project}`]);
      expect(pull.code).toBe(0);
      expect(pull.stderr).toMatch(/wrote pulled-\d+\/dashboards\.yaml/);
      const plan = await h.cli(["plan", "--detailed-exitcode", `pulled-${project}`]);
      expect(plan.stderr).not.toMatch(/error/);
      expect(plan.stdout).toContain("No changes");
      expect(plan.code).toBe(0);
    }
    const text = pulledText(h, "pulled-12345");
    expect(text).toMatch(/^# yaml-language-server: \$schema=/);
    expect(text).toContain("id: 3");
    expect(text).toContain("${");
    for (const secret of Object.values(SEED_CREDENTIALS)) {
      expect(text).not.toContain(secret);
    }
  });

  it("writes defaults too, so edits made later in the UI show up as drift", async () => {
    const pull = await h.cli(["pull", "--project", "12345", "--out", "adopted"]);
    expect(pull.code).toBe(0);
    const state = await h.state();
    const running = state.batch_exports.find(
      (b: { paused: boolean; team_id: number }) => !b.paused && b.team_id === 12345,
    );
    const unshared = state.dashboards.find(
      (d: { team_id: number; id: number }) => d.team_id === 12345 && d.id === 1,
    );
    expect(running).toBeDefined();
    expect((await h.api("POST", `/api/projects/12345/batch_exports/${running.id}/pause/`)).status).toBe(200);
    expect(
      (await h.api("PATCH", `/api/projects/12345/dashboards/${unshared.id}/`, { pinned: !unshared.pinned }))
        .status,
    ).toBe(200);
    const plan = await h.cli(["plan", "--detailed-exitcode", "adopted"]);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/unpause/);
    expect(plan.stdout).toMatch(/pinned/);
  });

  it("reports no changes on a seed of 500 objects, with and without the secret variables", async () => {
    const seed = bigSeed(await h.state(), {
      dashboards: 400,
      exports: 100,
      restrictedEvery: 10,
      sharedEvery: 8,
    });
    await h.seed(seed);
    // Pull reads each dashboard once (its tiles): 400 of them. The client paces requests to the
    // service's 480/minute, and the emulator holds keys to it; that budget is not what this test measures.
    await h.faults({ rate_limit: { requests: 100_000, window_seconds: 60 } });
    const pull = await h.cli(["pull", "--project", "12345", "--out", "big"], {
      POSTHOG_RATE_LIMIT: "6000/minute",
    });
    expect(pull.code).toBe(0);
    expect(pull.stderr).toContain("400 dashboards");
    expect(pull.stderr).toContain("100 batch exports");
    const variables = listedVariables(pull.stderr);
    expect(variables.length).toBeGreaterThan(0);
    const text = pulledText(h, "big");
    expect(text).not.toContain(SEED_SECRET);
    expect(text).toContain("collaborators:");
    expect(text).toContain("enabled: true");
    for (const v of variables) expect(text).toContain(`\${${v}}`);

    await h.clearRequests();
    const plan = await h.cli(["plan", "--detailed-exitcode", "big"]);
    expect(plan.stderr).not.toMatch(/error/);
    expect(plan.stdout).toContain("No changes");
    expect(plan.code).toBe(0);
    const requests = (await h.requests()).filter((r) => r.path.startsWith("/api/"));
    // 4 + 1 list pages, 40 restricted dashboards' collaborators, 50 shared dashboards' sharing.
    expect(requests.every((r) => r.method === "GET")).toBe(true);
    expect(requests.length).toBeLessThanOrEqual(4 + 1 + 40 + 50);
    process.stderr.write(`pull 500: plan sent ${requests.length} requests (bound ${4 + 1 + 40 + 50})\n`);

    // An encrypted flag payload is compared (a personal key reads it): set it to what it is.
    const env = Object.fromEntries(
      variables.map((v, i) => [
        v,
        v === "PRICING_CONFIG_PAYLOAD_TRUE" ? SAMPLE_ENCRYPTED_PAYLOAD : `${SEED_SECRET}_env${i}`,
      ]),
    );
    const withSecrets = await h.cli(["apply", "--auto-approve", "big"], env);
    expect(withSecrets.stdout).toContain("No changes");
    expect(withSecrets.code).toBe(0);
    expect(withSecrets.stdout + withSecrets.stderr).not.toContain(SEED_SECRET);
  });

  it("leaves out keys the configuration cannot hold (constructor, __proto__), so its files validate", async () => {
    // A service that sends them (the emulator keeps no `__proto__` key), in the answer's JSON text.
    const proxy = await recordingProxy(
      () => h.url,
      (text) =>
        text.replaceAll(
          '"table_name":"persons"',
          '"table_name":"persons","constructor":"c-value","__proto__":{"polluted":true}',
        ),
    );
    try {
      const env = { POSTHOG_HOST: proxy.url };
      const pull = await h.cli(["pull", "--project", "12345", "--out", "adopted"], env);
      expect(pull.code, pull.stderr).toBe(0);
      expect(pull.stderr).toContain(
        'left out destination.config.constructor and destination.config.__proto__ of batch export "Persons to Postgres": the configuration format does not allow these keys',
      );
      expect(pulledText(h, "adopted")).not.toMatch(/constructor|__proto__|polluted/);
      const validate = await h.cli(["validate", "adopted"]);
      expect(validate.code, validate.stdout).toBe(0);
      const plan = await h.cli(["plan", "--detailed-exitcode", "adopted"], env);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    } finally {
      await proxy.close();
    }
  });

  it("never overwrites: a second pull into the same folder is refused", async () => {
    expect((await h.cli(["pull", "--project", "12345", "--out", "x"])).code).toBe(0);
    const again = await h.cli(["pull", "--project", "12345", "--out", "x"]);
    expect(again.code).toBe(1);
    // It points to what the user most likely wants: the files they have, brought up to date.
    expect(again.stderr).toBe(
      "error: x/dashboards.yaml, x/insights.yaml, x/feature-flags.yaml, x/cohorts.yaml, x/actions.yaml, x/batch-exports.yaml already exists; pull never overwrites: to bring the files you have up to date with the live values, run posthog-gitops pull --refresh x; to adopt the project anew, choose another --out\n",
    );
  });

  it("writes the text cards of a dashboard that shows only text, and the next plan is empty", async () => {
    const board = await h.api("POST", "/api/projects/12345/dashboards/", { name: "Read me" });
    expect(board.status).toBe(201);
    const card = await h.api("PATCH", `/api/projects/12345/dashboards/${board.body.id}/`, {
      tiles: [{ text: { body: "## How we measure\nSee the wiki." } }],
    });
    expect(card.status, card.text).toBe(200);
    const pull = await h.cli(["pull", "--project", "12345", "--out", "x", "--kind", "dashboards"]);
    expect(pull.code, pull.stderr).toBe(0);
    const text = readFileSync(join(h.dir, "x/dashboards.yaml"), "utf8");
    expect(text).toContain("  - name: Read me\n");
    expect(text.split("  - name: Read me\n")[1]?.split("  - name:")[0]).toMatch(
      /\n {4}tiles:\n {6}- text: \|-\n {10}## How we measure\n {10}See the wiki\.\n/,
    );
    // A dashboard without tiles gets no `tiles:`: its plans never read it.
    expect(text.split("  - name: Onboarding Funnel\n")[1]?.split("  - name:")[0]).toMatch(/sharing:/);
    expect(text.split("  - name: Onboarding Funnel\n")[1]?.split("  - name:")[0]).not.toContain("tiles:");
    const plan = await h.cli(["plan", "--detailed-exitcode", "x"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
