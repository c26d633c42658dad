/**
 * Secrets in the service's text, as the reader of each output reads it (SPEC §8: scrubbing happens on
 * the text as it will be read). The markdown plan escapes `_` as `&#95;`, which GitHub shows as `_`
 * again; names and errors are cut to fit a line or a comment; neither may bring back a secret or a
 * piece of one. The real CLI runs against the emulator; the leak scan (which reads entities, backslash,
 * JSON and URL escapes, and looks for every 8-character slice) checks every output and file after each
 * test, and each test also checks its own outputs with it and says what the reader sees instead.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Json, type RunResult, S3_EXPORT_ID, useEmulator } from "../support/emulator.js";
import { findLeaks, readings } from "../support/leak-scan.js";

const h = useEmulator();

/** Forty characters, as long as a real key, with every character markdown escapes as an entity. */
const TOKEN = "Tok_8Vq*Lm2~Wx9[Rb]3Zk_Pq7|Hd4`Sv6\\Nf1Gj";
const ENV = { LEAK_TOKEN: TOKEN };

const HTTP_EXPORT = `batch_exports:
  - name: leak-http
    model: events
    interval: day
    destination:
      type: HTTP
      config:
        url: https://us.i.posthog.com/batch/
        token: \${LEAK_TOKEN}
`;

/** Adds dashboards to project 12345, by id and name. */
async function addDashboards(named: Record<number, string>): Promise<void> {
  await h.reseed<Json>((state) => {
    for (const [id, name] of Object.entries(named)) {
      state.dashboards.push({ id: Number(id), team_id: 12345, name, tags: [] });
    }
  });
}

/** Each run's output, checked by the leak scan as its test ends, and here now. */
function expectClean(runs: Array<[string, RunResult]>, files: Array<[string, string]> = []): void {
  const recorded = runs.map(([label, r]) => ({ label, env: h.env(ENV), ...r }));
  expect(findLeaks(recorded, files)).toEqual([]);
}

const read = (text: string) => readings(text).join("\n");

describe("a secret in a name from the service", () => {
  it("is hidden in the markdown plan and the job summary, escaped as they escape it, and in text and JSON", async () => {
    // Soft-deleted by the prune: the markdown shows its name as HTML (`_` written `&#95;`).
    await addDashboards({ 900: `Leak ${h.key} and ${TOKEN}`, 902: `Renamed from ${TOKEN}` });
    h.write("p/all.yaml", `project: 12345\ndashboards:\n  - id: 902\n    name: Renamed\n${HTTP_EXPORT}`);
    const summary = join(h.dir, "summary.md");
    const gha = { ...ENV, GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary };
    const runs: Array<[string, RunResult]> = [];
    for (const format of ["markdown", "text", "json"]) {
      const result = await h.cli(["plan", "--format", format, "--prune", "--force", "p"], gha);
      expect(result.code, result.stderr).toBe(0);
      runs.push([`plan --format ${format}`, result]);
    }
    const markdown = runs[0]?.[1].stdout ?? "";
    expectClean(runs, [["summary.md", readFileSync(summary, "utf8")]]);
    // What GitHub shows: the name with labels where the secrets were.
    expect(read(markdown)).toContain("Leak (secret from $POSTHOG_API_KEY) and (secret from $LEAK_TOKEN)");
    expect(read(readFileSync(summary, "utf8"))).toContain("Leak (secret from $POSTHOG_API_KEY)");
  });

  it("is hidden whole when the markdown plan cuts the name to 200 characters", async () => {
    const long = `${"N".repeat(165)} ${TOKEN}`;
    await addDashboards({ 901: long });
    h.write("p/all.yaml", `project: 12345\ndashboards: []\n${HTTP_EXPORT}`);
    const result = await h.cli(["plan", "--format", "markdown", "--prune", "--force", "p"], ENV);
    expect(result.code, result.stderr).toBe(0);
    expectClean([["plan --format markdown --prune", result]]);
    // The label took the secret's place before the name was cut.
    expect(read(result.stdout)).toMatch(/N{165} \(secret from \$LEAK_TOKEN\)/);
  });
});

describe("a secret in an error from the service", () => {
  it("is hidden whole when runs cuts the error to 80 characters", async () => {
    const error = `${"E".repeat(60)} Bearer ${h.key} refused`;
    await h.reseed<Json>((state) => {
      for (const run of state.runs) if (run.batch_export === S3_EXPORT_ID) run.latest_error = error;
    });
    const args = ["runs", S3_EXPORT_ID, "--project", "12345", "--since", "-1000d"];
    const runs: Array<[string, RunResult]> = [
      ["runs", await h.cli(args)],
      ["runs --format json", await h.cli([...args, "--format", "json"])],
    ];
    for (const [label, r] of runs) expect(r.code, `${label}: ${r.stderr}`).toBe(0);
    expectClean(runs);
    // Scrubbed first, then cut: the cut falls in the label.
    expect(runs[0]?.[1].stdout).toContain(`${"E".repeat(60)} Bearer (secret fro…\n`);
  });
});

describe("service text in markdown", () => {
  it("cannot mention, reference, link or reorder a line, in any format", async () => {
    const name = "Ping @acme/admins about acme/site#12: see https://evil.example/x \u202egnp.exe\u202c\u200b";
    await addDashboards({ 903: name });
    h.write("p/all.yaml", "project: 12345\ndashboards: []\n");
    const summary = join(h.dir, "summary.md");
    const gha = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary };
    const outputs: string[] = [];
    for (const format of ["markdown", "text", "json"]) {
      const result = await h.cli(["plan", "--format", format, "--prune", "--force", "p"], gha);
      expect(result.code, result.stderr).toBe(0);
      outputs.push(result.stdout, result.stderr);
    }
    outputs.push(readFileSync(summary, "utf8"));
    const markdown = outputs[0] ?? "";
    // As GitHub reads the markdown: entities decoded, the zero-width spaces that break links kept.
    const github = markdown.replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)));
    expect(github).toContain(
      "Ping @\u200bacme/admins about acme/site#\u200b12: see https:\u200b//evil.example/x",
    );
    expect(github).not.toMatch(/@acme|#12|https:\/\//);
    for (const text of outputs) expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/);
    // Shown, escaped, in every format: JSON still names the same characters.
    expect(outputs[2]).toContain("\\u202egnp.exe\\u202c\\u200b");
    expect(outputs[4]).toContain("\\u202egnp.exe\\u202c\\u200b");
    const plan = JSON.parse(outputs[4] ?? "{}") as { actions: Array<{ object: { name: string } }> };
    expect(plan.actions.map((a) => a.object.name)).toContain(name);
  });
});
