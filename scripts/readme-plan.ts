/**
 * Writes the pull-request comment shown in README.md, from the real CLI against the emulator: the
 * demo's configuration (examples/posthog: staging and production) in a scratch git repository, applied
 * to both environments; then a few edits in production's "PostHog UI" (through the API) and one in a
 * shared file, every environment planned with `--base HEAD` as the action would render it.
 * `npx tsx scripts/readme-plan.ts` prints the markdown; paste it into the README (shortened).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "posthog-gitops-emulator";
import type { Clock } from "posthog-gitops-shared/clock";
import { main } from "../src/cli.js";
import type { Io } from "../src/io.js";

const root = fileURLToPath(new URL("..", import.meta.url));
/** A clock the script sets: the apply and the UI edits in the morning, the plan at noon. */
let now = Date.parse("2026-11-20T09:00:00Z");
const clock: Clock = {
  now: () => now,
  sleep: async (ms) => {
    now += ms;
  },
};
const dir = mkdtempSync(join(tmpdir(), "posthog-gitops-readme-"));
const secrets = {
  PRODUCTION_PROJECT_TOKEN: "phc_demo_token_not_real",
  PRICING_PAYLOAD_PRODUCTION: '{"discount_code": "DEMO-NOT-REAL"}',
};
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "demo",
      GIT_AUTHOR_EMAIL: "demo@example.com",
      GIT_COMMITTER_NAME: "demo",
      GIT_COMMITTER_EMAIL: "demo@example.com",
    },
  });

const emulator = await startEmulator({ port: 0, clock });
try {
  const env = {
    ...secrets,
    PATH: process.env.PATH,
    POSTHOG_HOST: emulator.url,
    POSTHOG_API_KEY_STAGING: "phx_emulator_staging",
    POSTHOG_API_KEY_PRODUCTION: "phx_emulator_production",
  };
  const cli = async (args: string[]) => {
    let out = "";
    let err = "";
    const io: Io = {
      stdout: {
        write: (t) => {
          out += t;
        },
      },
      stderr: {
        write: (t) => {
          err += t;
        },
      },
      env,
      cwd: dir,
      clock,
    };
    const code = await main(["node", "posthog-gitops", ...args], env, io);
    return { code, out, err };
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { Authorization: "Bearer phx_emulator", "Content-Type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
  };

  cpSync(join(root, "examples/posthog"), join(dir, "posthog"), { recursive: true });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  const applied = await cli(["apply", "--all", "--auto-approve", "posthog"]);
  if (applied.code !== 0) process.stderr.write(`apply: exit ${applied.code}\n${applied.out}${applied.err}\n`);

  // In the PostHog UI at 09:40: Weekly KPIs' description edited and carol removed; events-to-s3 paused.
  now = Date.parse("2026-11-20T09:40:00Z");
  const list = (await api("GET", "/api/projects/12345/dashboards/?limit=100")) as {
    results: { id: number; name: string }[];
  };
  const kpis = list.results.find((d) => d.name === "Weekly KPIs")!;
  await api("PATCH", `/api/projects/12345/dashboards/${kpis.id}/`, {
    description: "Weekly review (edited in the UI)",
  });
  await api(
    "DELETE",
    `/api/projects/12345/dashboards/${kpis.id}/collaborators/0190f1d2-7b4e-7c3a-9d1f-000000000003/`,
  );
  const exports = (await api("GET", "/api/projects/12345/batch_exports/?limit=100")) as {
    results: { id: string; name: string }[];
  };
  const s3 = exports.results.find((b) => b.name === "events-to-s3")!;
  await api("POST", `/api/projects/12345/batch_exports/${s3.id}/pause/`);
  // In the pull request: Product usage's description changed in the shared file (production's overlay
  // sets its own, so only staging's changes). The plan is made at noon.
  const file = join(dir, "posthog/shared/dashboards.yaml");
  const text = readFileSync(file, "utf8");
  writeFileSync(file, text.replace("across the web app (", "across the web and mobile apps ("));
  now = Date.parse("2026-11-20T12:00:00Z");

  const plan = await cli(["plan", "posthog", "--base", "HEAD", "--format", "markdown"]);
  if (plan.code !== 0) process.stderr.write(`plan: exit ${plan.code}\n${plan.err}\n`);
  process.stdout.write(`<!-- posthog-gitops-comment: posthog-gitops -->\n${plan.out}`);
} finally {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
}
