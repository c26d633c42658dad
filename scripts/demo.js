#!/usr/bin/env node
// The newcomer's first command (`npm run demo`): start the built-in emulator on loopback (the newest
// PostHog service's rules), then run plan, apply and plan again on examples/ against it. The last plan
// must report no changes (`--detailed-exitcode` exits 0) and the emulator must have refused nothing
// (no 4xx or 5xx in its request log), which is what makes the demo a check as well as a show.
// Colour only on a terminal and never with NO_COLOR (https://no-color.org), like the CLI itself.
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = fileURLToPath(new URL("../bin/posthog-gitops.js", import.meta.url));
// One set of files for two environments (staging and production, two projects with their own keys).
const paths = ["examples/posthog"];

// Stand-in secrets for the example exports (most credentials live in the emulator's integrations) and
// the encrypted flag payload; the tool never prints them.
const demoSecrets = {
  PRODUCTION_PROJECT_TOKEN: "phc_demo_token_not_real",
  PRICING_PAYLOAD_PRODUCTION: '{"discount_code": "DEMO-NOT-REAL"}',
};

const colour = process.stdout.isTTY === true && !("NO_COLOR" in process.env && process.env.NO_COLOR !== "");
const bold = (text) => (colour ? `\x1b[1m${text}\x1b[0m` : text);

/** The emulator's request log: every API request it answered; a refused one fails the demo. */
async function checkRequestLog(url) {
  const res = await fetch(`${url}/_emulator/requests`);
  const { requests } = await res.json();
  const refused = requests.filter((r) => r.status >= 400);
  process.stdout.write(
    `\nemulator: ${requests.length} requests, ${refused.length} answered with an error (4xx/5xx)\n`,
  );
  for (const r of refused) process.stderr.write(`refused: ${r.method} ${r.path} → ${r.status}\n`);
  return refused.length === 0;
}

async function startEmulator() {
  const child = spawn(process.execPath, [cli, "emulator", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the emulator did not start within 10 s")), 10_000);
    lines.once("line", (line) => {
      clearTimeout(timer);
      const match = /^listening on (http:\/\/\S+)$/.exec(line);
      match ? resolve(match[1]) : reject(new Error(`unexpected emulator output: ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

function run(title, args, env) {
  process.stdout.write(`\n${bold(`$ posthog-gitops ${args.join(" ")}`)}   # ${title}\n`);
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, env, stdio: "inherit" });
  return result.status ?? 1;
}

const emulator = await startEmulator();
let failed = false;
try {
  const env = {
    ...process.env,
    ...demoSecrets,
    POSTHOG_HOST: emulator.url,
    // Each environment's key, in the variable its entry in examples/posthog/environments.yaml names.
    POSTHOG_API_KEY_STAGING: "phx_emulator_staging",
    POSTHOG_API_KEY_PRODUCTION: "phx_emulator_production",
  };
  process.stdout.write(`emulator listening on ${emulator.url}\n`);
  failed ||= run("offline checks", ["validate", ...paths], env) !== 0;
  failed ||= run("what would change", ["plan", ...paths], env) !== 0;
  failed ||= run("what production gets", ["render", "--env", "production", ...paths], env) !== 0;
  failed ||= run("make it so, staging first", ["apply", "--all", "--auto-approve", ...paths], env) !== 0;
  const again = run("again: nothing left to do", ["plan", "--detailed-exitcode", ...paths], env);
  if (again !== 0) {
    process.stderr.write(`\nthe second plan still shows changes (exit ${again}): apply is not idempotent\n`);
    failed = true;
  }
  failed = !(await checkRequestLog(emulator.url)) || failed;
} finally {
  emulator.stop();
}
process.exitCode = failed ? 1 : 0;
