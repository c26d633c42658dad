/**
 * Trying to make the tool print a secret or let the service drive the terminal or the workflow log
 * (SPEC §8 "Output"): a service that echoes the submitted secrets in a 400 and in what it shows, an
 * apply interrupted with such an answer in flight, and names, errors and log lines from the service,
 * and file names, full of newlines, ANSI sequences and workflow commands. The real CLI runs in-process
 * against the emulator, behind a loopback proxy that plays the hostile service.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import type { StopSignalName } from "../../src/io.js";
import { type Json, POSTGRES_EXPORT_ID, type RunResult, useEmulator } from "../support/emulator.js";
import { memoryIo } from "../support/io.js";

const h = useEmulator();

const USER = "trust_user_Q7x2";
// Quotes, a backslash, a slash and a non-ASCII letter: its JSON and URL forms differ from it.
const PASSWORD = 'pa"ss\\wörd/Q7x2';
const SECRETS = { T_PG_USER: USER, T_PG_PASSWORD: PASSWORD };
const FORMS = [
  USER,
  PASSWORD,
  JSON.stringify(PASSWORD).slice(1, -1),
  encodeURIComponent(PASSWORD),
  "wörd/Q7",
];

const PG = `project: 12345
batch_exports:
  - name: Persons to Postgres
    destination:
      type: Postgres
      config:
        host: db.example.com
        database: analytics
        table_name: persons_v2
        user: \${T_PG_USER}
        password: \${T_PG_PASSWORD}
`;

function expectNoSecret(label: string, text: string): void {
  for (const form of [...FORMS, h.key]) {
    if (text.includes(form)) throw new Error(`${label} holds ${JSON.stringify(form)}:\n${text}`);
  }
}

/** Every file under the test's folder, by relative path. */
function filesIn(dir: string, prefix = ""): Array<[string, string]> {
  return readdirSync(dir).flatMap((name): Array<[string, string]> => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesIn(path, `${prefix}${name}/`);
    return [[`${prefix}${name}`, readFileSync(path, "utf8")]];
  });
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

type Answer = { status: number; text: string };
/** What the hostile service does with a request: its own answer, or the emulator's (`forward`). */
type Play = (
  req: { method: string; url: string; body: string },
  forward: () => Promise<Answer>,
) => Promise<Answer>;

let closeProxy: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeProxy?.();
  closeProxy = undefined;
});

/** A loopback service in front of the emulator that plays `play`; returns its URL. */
async function hostile(play: Play): Promise<string> {
  const server = createServer(async (req, res) => {
    const text = await body(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === "string" && !["host", "connection", "content-length"].includes(k)) headers[k] = v;
    }
    const method = req.method ?? "GET";
    const forward = async (): Promise<Answer> => {
      const init: RequestInit = { method, headers };
      if (text !== "") init.body = text;
      const answer = await fetch(`${h.url}${req.url}`, init);
      return { status: answer.status, text: await answer.text() };
    };
    const answer = await play({ method, url: req.url ?? "", body: text }, forward);
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(answer.text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closeProxy = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A 400 the way a validating service words it: the submitted config, quoted back. */
function echo400(submitted: string): Answer {
  const config = (JSON.parse(submitted) as Json).destination?.config ?? {};
  return {
    status: 400,
    text: JSON.stringify({
      type: "validation_error",
      code: "invalid_input",
      detail: `Invalid destination config ${JSON.stringify(config)}: user '${config.user}' cannot log in with password '${config.password}'`,
      attr: "destination",
    }),
  };
}

const isWrite = (method: string, url: string) =>
  (method === "PATCH" || method === "POST") && url.includes("/batch_exports/");

describe("a service that echoes the secrets it was sent", () => {
  it("a 400 quoting the submitted config: apply's result line and --verbose log are scrubbed", async () => {
    const url = await hostile(async (req, forward) =>
      isWrite(req.method, req.url) ? echo400(req.body) : forward(),
    );
    h.write("p/pg.yaml", PG);
    const run = await h.cli(["apply", "--auto-approve", "--verbose", "p"], { ...SECRETS, POSTHOG_HOST: url });
    expect(run.code).toBe(1);
    const all = `${run.stdout}${run.stderr}`;
    expect(all).toContain("(secret from $T_PG_PASSWORD)");
    expect(all).toContain("(secret from $T_PG_USER)");
    expectNoSecret("apply", all);
  });

  it("secrets shown in live state: plan in every format, --out, the job summary and annotations", async () => {
    const url = await hostile(async (req, forward) => {
      const answer = await forward();
      if (req.method !== "GET" || !req.url.includes("/batch_exports")) return answer;
      // The service shows the stored credentials, in every batch export it lists or reads.
      const text = answer.text.replaceAll(
        '"table_name":"persons"',
        `"table_name":${JSON.stringify(`persons ${PASSWORD}`)},"password":${JSON.stringify(PASSWORD)},"user":"${USER}"`,
      );
      return { ...answer, text };
    });
    h.write("p/pg.yaml", PG);
    const summary = join(h.dir, "summary.md");
    const env = { ...SECRETS, POSTHOG_HOST: url };
    const gha = { ...env, GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary };
    const runs: Array<[string, RunResult]> = [];
    for (const format of ["text", "json", "markdown"]) {
      runs.push([format, await h.cli(["plan", "--verbose", "--format", format, "p"], gha)]);
    }
    runs.push(["--out", await h.cli(["plan", "--rotate-secrets", "--out", "saved.json", "p"], env)]);
    for (const [label, run] of runs) {
      expect(run.code, `${label}: ${run.stderr}`).toBe(0);
      expectNoSecret(`plan ${label}`, `${run.stdout}${run.stderr}`);
    }
    // The live value really was shown: the scrubbed form of it is in the plan.
    expect(runs[0]?.[1].stdout).toContain("persons (secret from $T_PG_PASSWORD)");
    const files = filesIn(h.dir);
    expect(files.map(([name]) => name).sort()).toEqual(["p/pg.yaml", "saved.json", "summary.md"]);
    for (const [name, text] of files) if (name !== "p/pg.yaml") expectNoSecret(name, text);
    // Still a saved plan JSON can read (a secret's replacement never breaks the JSON).
    expect(JSON.parse(readFileSync(join(h.dir, "saved.json"), "utf8")).saved_plan_version).toBeTypeOf(
      "number",
    );
  });

  it("an apply interrupted while the answer that echoes the secrets is on its way", async () => {
    let stop: ((signal: StopSignalName) => void) | undefined;
    const url = await hostile(async (req, forward) => {
      if (!isWrite(req.method, req.url)) return forward();
      stop?.("SIGINT");
      return echo400(req.body);
    });
    h.write("p/pg.yaml", PG);
    h.write(
      "p/more.yaml",
      "project: 12345\ndashboards:\n  - name: Product KPIs\n    description: changed while stopping\n",
    );
    const mem = memoryIo(h.env({ ...SECRETS, POSTHOG_HOST: url }), h.dir, h.clock);
    mem.io.onTerminate = (handler) => {
      stop = handler;
      return () => {
        stop = undefined;
      };
    };
    const code = await main(
      ["node", "posthog-gitops", "apply", "--auto-approve", "--concurrency", "1", "p"],
      mem.io.env,
      mem.io,
    );
    expect(code).toBe(130);
    expect(mem.stderr).toContain("Stopping");
    const all = `${mem.stdout}${mem.stderr}`;
    expect(all).toContain("(secret from $T_PG_PASSWORD)");
    expectNoSecret("interrupted apply", all);
  });

  it("logs and runs of an export whose service messages quote the secrets (with --config)", async () => {
    const state = await h.state();
    for (const log of state.logs)
      if (log.batch_export === POSTGRES_EXPORT_ID) log.message += ` password=${PASSWORD}`;
    await h.seed(state);
    h.write("p/pg.yaml", PG);
    for (const args of [
      ["logs", "Persons to Postgres", "--config", "p"],
      ["logs", "Persons to Postgres", "--config", "p", "--format", "json"],
    ]) {
      const run = await h.cli(args, SECRETS);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("password=(secret from $T_PG_PASSWORD)");
      expectNoSecret(args.join(" "), `${run.stdout}${run.stderr}`);
    }
  });
});

// A newline that would start a workflow command of its own, ANSI colour, a terminal title (OSC), an
// 8-bit CSI, a bell, a carriage return that would overwrite the line, and the erase-line the progress
// line uses.
const EVIL =
  "Evil\n::add-mask::secret\n::set-output name=x::y\u001b[31m red \u001b]0;title\u0007\u009b2J\rover\r\u001b[2Kgone";
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * What is wrong with `text`: a raw control character, or a line a GitHub runner would read as a
 * workflow command the tool did not mean to give.
 */
function problems(label: string, text: string): string[] {
  const found: string[] = [];
  const raw = RAW.exec(text);
  if (raw)
    found.push(`${label} holds a raw \\u${raw[0].charCodeAt(0).toString(16).padStart(4, "0")}:\n${text}`);
  for (const line of text.split("\n")) {
    if (/^\s*::/.test(line) && !/^::(error|warning|notice)( [^:]*)?::/.test(line)) {
      found.push(`${label} has a line read as a workflow command: ${JSON.stringify(line)}\n${text}`);
    }
  }
  return found;
}

function expectInert(outputs: Array<[string, string]>): void {
  expect(outputs.flatMap(([label, text]) => problems(label, text)).join("\n\n")).toBe("");
}

describe("control characters and workflow commands from the service and from file names", () => {
  it("names, errors and log lines of the service: plan, apply, status, runs, logs and pull", async () => {
    const state = await h.state();
    const evilDashboard = state.dashboards.find((d: Json) => d.name === "Marketing Overview");
    evilDashboard.name = EVIL;
    evilDashboard.description = EVIL;
    const pg = state.batch_exports.find((b: Json) => b.id === POSTGRES_EXPORT_ID);
    pg.name = `PG ${EVIL}`;
    for (const run of state.runs) if (run.batch_export === POSTGRES_EXPORT_ID) run.latest_error = EVIL;
    for (const log of state.logs) if (log.batch_export === POSTGRES_EXPORT_ID) log.message = EVIL;
    await h.seed(state);
    h.write(
      "p/d.yaml",
      `project: 12345\ndashboards:\n  - name: Renamed\n    id: ${evilDashboard.id}\n  - name: Product KPIs\n`,
    );
    const gha = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: join(h.dir, "summary.md") };
    const runs: Array<[string, RunResult]> = [];
    const run = async (args: string[], env: Record<string, string> = gha) => {
      const result = await h.cli(args, env);
      runs.push([args.join(" "), result]);
      return result;
    };
    for (const format of ["text", "json", "markdown"]) await run(["plan", "--format", format, "p"]);
    await run(["plan", "--prune", "--force", "--target", "dashboard/*", "p"]);
    await run(["status", "--project", "12345"]);
    await run(["runs", pg.id, "--project", "12345", "--since", "-1000d"]);
    await run(["logs", pg.id, "--project", "12345"]);
    await run(["events", "--project", "12345", "--limit", "3"]);
    await run(["pull", "--project", "12345", "--out", "pulled"]);
    await run(["apply", "--auto-approve", "p"]);
    for (const [label, result] of runs) expect(result.code, `${label}: ${result.stderr}`).toBe(0);
    expectInert([
      ...runs.flatMap(
        ([label, r]): Array<[string, string]> => [
          [`${label} stdout`, r.stdout],
          [`${label} stderr`, r.stderr],
        ],
      ),
      ["job summary", readFileSync(join(h.dir, "summary.md"), "utf8")],
      ...filesIn(join(h.dir, "pulled")),
    ]);
    // The name was shown, escaped.
    expect(runs[0]?.[1].stdout).toContain("Evil\\n::add-mask::secret");
  });

  it("with colour forced, the tool's own colour codes pass but the service's never do", async () => {
    const state = await h.state();
    state.dashboards.find((d: Json) => d.name === "Marketing Overview").name = EVIL;
    state.batch_exports.find((b: Json) => b.id === POSTGRES_EXPORT_ID).name = `PG ${EVIL}`;
    await h.seed(state);
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n    pinned: true\n");
    const env = { FORCE_COLOR: "1" };
    const outputs: string[] = [];
    for (const args of [
      ["plan", "--prune", "--force", "--target", "dashboard/*", "p"],
      ["status", "--project", "12345"],
      ["runs", POSTGRES_EXPORT_ID, "--project", "12345", "--since", "-1000d"],
    ]) {
      const result = await h.cli(args, env);
      expect(result.code, result.stderr).toBe(0);
      outputs.push(result.stdout, result.stderr);
    }
    const all = outputs.join("");
    expect(all).toMatch(/\u001b\[3\dm/); // colour is on
    expect(all).toContain("\\u001b[31m red");
    expect(all).not.toContain("\u001b[31m red");
    expect(all).not.toContain("\u001b[2Kgone");
  });

  it("an error whose detail is hostile: apply's result line and the final error line", async () => {
    const refusal = { status: 400, text: JSON.stringify({ type: "validation_error", detail: EVIL }) };
    const url = await hostile(async (req, forward) =>
      req.method === "PATCH" || req.url.includes("/integrations") ? refusal : forward(),
    );
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n    description: new\n");
    const env = { POSTHOG_HOST: url, GITHUB_ACTIONS: "true" };
    const apply = await h.cli(["apply", "--auto-approve", "p"], env);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain("Evil\\n::add-mask::secret");
    h.write(
      "p/b.yaml",
      "project: 12345\nbatch_exports:\n  - name: Events to S3\n    destination:\n      type: AwsS3\n      integration: 1\n",
    );
    const plan = await h.cli(["plan", "p"], env);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("Evil\\n::add-mask::secret");
    expectInert([
      ["apply stdout", apply.stdout],
      ["apply stderr", apply.stderr],
      ["plan stdout", plan.stdout],
      ["plan stderr", plan.stderr],
    ]);
  });

  it("a file name with a newline and ANSI sequences, in diagnostics and annotations", async () => {
    const name = "p/bad\n::add-mask::x\u001b[31m.yaml";
    h.write(name, "project: 12345\ndashboards:\n  - name: x\n    pinned: maybe\n");
    const env = { GITHUB_ACTIONS: "true", GITHUB_WORKSPACE: h.dir };
    const outputs: Array<[string, string]> = [];
    for (const args of [
      ["validate", "p"],
      ["validate", "--format", "json", "p"],
      ["plan", "p"],
    ]) {
      const result = await h.cli(args, env);
      expect(result.code).toBe(1);
      expect(`${result.stdout}${result.stderr}`).toContain("bad");
      outputs.push([`${args.join(" ")} stdout`, result.stdout], [`${args.join(" ")} stderr`, result.stderr]);
    }
    expectInert(outputs);
  });
});
