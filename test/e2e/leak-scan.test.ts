/**
 * The leak scan itself (test/support/leak-scan.ts), which runs after every test of the emulator
 * harness: a full scenario with secrets set comes out clean, and the same outputs with a secret planted
 * in any of them (stdout, stderr, a written file; JSON-, HTML-, markdown- or URL-escaped, or cut to
 * eight characters) are caught, naming where and which. A scan that cannot fail would prove nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SEED_CREDENTIALS } from "posthog-gitops-emulator";
import { describe, expect, it } from "vitest";
import { type EmulatorHarness, KEY, POSTGRES_EXPORT_ID, useEmulator } from "../support/emulator.js";
import { filesUnder, findLeaks, type RecordedRun } from "../support/leak-scan.js";

const h = useEmulator();
const SECRETS = {
  SCAN_PG_USER: "scan_user_8Hq2",
  SCAN_PG_PASSWORD: 'scan"pass\\8Hq2',
  SCAN_TOKEN: "phc_scan_token_8Hq2",
};

const CONFIG = `project: 12345
variables: [TEAM]
dashboards:
  - name: Product KPIs
    description: owned by \${TEAM}
batch_exports:
  - name: Persons to Postgres
    destination:
      type: Postgres
      config:
        host: db.example.com
        database: analytics
        table_name: persons_scan
        user: \${SCAN_PG_USER}
        password: \${SCAN_PG_PASSWORD}
  - name: scan-http
    model: events
    interval: day
    destination:
      type: HTTP
      config:
        url: https://us.i.posthog.com/batch/
        token: \${SCAN_TOKEN}
`;

/** Every command of the scenario, run as users run them; returns what the scan records. */
async function scenario(e: EmulatorHarness): Promise<RecordedRun[]> {
  e.write("p/all.yaml", CONFIG);
  const env = { ...SECRETS, TEAM: "growth-team", GITHUB_ACTIONS: "true" };
  const runs: RecordedRun[] = [];
  for (const args of [
    ["validate", "p"],
    ["plan", "--verbose", "p"],
    ["plan", "--format", "json", "--rotate-secrets", "p"],
    ["plan", "--format", "markdown", "--out", "saved.json", "p"],
    ["apply", "--auto-approve", "--verbose", "--plan", "saved.json"],
    ["pull", "--project", "12345", "--out", "pulled"],
    ["pull", "--refresh", "p"],
    ["status", "p"],
    ["runs", "Persons to Postgres", "--config", "p", "--since", "-1000d"],
    ["logs", "Persons to Postgres", "--config", "p"],
  ]) {
    const result = await e.cli(args, { ...env, GITHUB_STEP_SUMMARY: join(e.dir, "summary.md") });
    expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
    runs.push({ label: args.join(" "), env: e.env(env), stdout: result.stdout, stderr: result.stderr });
  }
  return runs;
}

describe("the leak scan", () => {
  it("finds nothing in a full scenario, and each secret planted in its outputs", async () => {
    const runs = await scenario(h);
    const written = new Map([["p/all.yaml", CONFIG]]);
    const files = filesUnder(h.dir);
    expect(files.map(([path]) => path).sort()).toEqual([
      "p/all.yaml",
      "pulled/actions.yaml",
      "pulled/batch-exports.yaml",
      "pulled/cohorts.yaml",
      "pulled/dashboards.yaml",
      "pulled/feature-flags.yaml",
      "pulled/insights.yaml",
      "saved.json",
      "summary.md",
    ]);
    // The apply did send the secrets: there was something to leak.
    const pg = (await h.state()).batch_exports.find((b: { id: string }) => b.id === POSTGRES_EXPORT_ID);
    expect(pg.destination.config.password).toBe(SECRETS.SCAN_PG_PASSWORD);
    expect(findLeaks(runs, files, written)).toEqual([]);

    const plant = (index: number, stream: "stdout" | "stderr", text: string) =>
      runs.map((run, i) => (i === index ? { ...run, [stream]: `${run[stream]}${text}` } : run));
    expect(findLeaks(plant(1, "stderr", `GET 200 Bearer ${KEY}`), files, written)).toEqual([
      { where: "stderr of plan --verbose p", what: "$POSTHOG_API_KEY" },
    ]);
    expect(findLeaks(plant(7, "stdout", `user ${SECRETS.SCAN_PG_USER}`), files, written)).toEqual([
      { where: "stdout of status p", what: "$SCAN_PG_USER" },
    ]);
    const escaped = JSON.stringify({ password: SECRETS.SCAN_PG_PASSWORD });
    const withFile = files.map(([path, text]): [string, string] =>
      path === "saved.json" ? [path, `${text}${escaped}`] : [path, text],
    );
    expect(findLeaks(runs, withFile, written)).toEqual([
      { where: "file saved.json", what: "$SCAN_PG_PASSWORD" },
    ]);
    // Escaped as each output format escapes, or cut short: still the secret, as its readers read it.
    const user = SECRETS.SCAN_PG_USER;
    for (const form of [
      user.replaceAll("_", "&#95;"),
      user.replaceAll("_", "&#x5F;"),
      user.replaceAll("_", "&lowbar;"),
      user.replaceAll("_", "\\_"),
      user.replaceAll("_", "%5F"),
      user.replaceAll("_", "\\u005f"),
      `${user.slice(0, 8)}…`,
      `…${user.slice(-8)}`,
      `${user.slice(0, 5)}\u200b${user.slice(5)}`,
    ]) {
      expect(findLeaks(plant(2, "stdout", `name ${form}`), files, written), form).toEqual([
        { where: "stdout of plan --format json --rotate-secrets p", what: "$SCAN_PG_USER" },
      ]);
    }
    // Seven characters of it are not a leak: a slice is one from eight on.
    expect(findLeaks(plant(2, "stdout", `name ${user.slice(0, 7)}…`), files, written)).toEqual([]);
    // The emulator's own stored credentials count too.
    expect(findLeaks(plant(5, "stdout", SEED_CREDENTIALS.postgresPassword), files, written)).toEqual([
      { where: "stdout of pull --project 12345 --out pulled", what: "the emulator's Postgres password" },
    ]);
    // So does the disguised payload tests store on a flag whose file says it is not encrypted: its
    // number and its key, JSON-escaped or not.
    expect(findLeaks(plant(1, "stdout", '{"zq7pin_vault":73519284}'), files, written)).toEqual([
      { where: "stdout of plan --verbose p", what: "the disguised payload's number" },
      { where: "stdout of plan --verbose p", what: "the disguised payload's key" },
    ]);
    // A value the files list under `variables:` is meant to be printed: not a leak.
    expect(runs.some((run) => run.stdout.includes("growth-team"))).toBe(true);
    // A test's own input file is not output; the same file rewritten by the tool is.
    const input = `${CONFIG}# ${SECRETS.SCAN_TOKEN}\n`;
    const asInput = files.map(([path, text]): [string, string] => [
      path,
      path === "p/all.yaml" ? input : text,
    ]);
    expect(findLeaks(runs, asInput, new Map([["p/all.yaml", input]]))).toEqual([]);
    expect(findLeaks(runs, asInput, written)).toEqual([{ where: "file p/all.yaml", what: "$SCAN_TOKEN" }]);
  });

  it("runs after every test of the suite, over the files the tool left", async () => {
    // The scan after this test must pass: the planted file is removed again before the test ends.
    await h.cli(["plan", "p"], SECRETS);
    const planted = join(h.dir, "planted.txt");
    writeFileSync(planted, `token ${SECRETS.SCAN_TOKEN}`);
    const runs: RecordedRun[] = [{ label: "plan p", env: h.env(SECRETS), stdout: "", stderr: "" }];
    expect(findLeaks(runs, filesUnder(h.dir))).toEqual([{ where: "file planted.txt", what: "$SCAN_TOKEN" }]);
    writeFileSync(planted, "clean");
  });
});
