#!/usr/bin/env node
// The newcomer's first command (`npm run demo`): start the built-in emulator on loopback, then run
// plan, apply and plan again on examples/ against it. The last plan must report no changes
// (`--detailed-exitcode` exits 0), which is what makes the demo a check as well as a show.
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = fileURLToPath(new URL("../bin/posthog-gitops.js", import.meta.url));
const paths = ["examples/production", "examples/staging"];

// Stand-in credentials for the example exports: the emulator accepts anything, and the tool never prints them.
const demoSecrets = {
  AWS_ACCESS_KEY_ID: "AKIADEMOEXAMPLE00000",
  AWS_SECRET_ACCESS_KEY: "demo-secret-access-key-not-real",
  PG_USER: "exporter",
  PG_PASSWORD: "demo-password-not-real",
  STAGING_AWS_ACCESS_KEY_ID: "AKIADEMOEXAMPLE00001",
  STAGING_AWS_SECRET_ACCESS_KEY: "demo-staging-secret-not-real",
  STAGING_PG_USER: "exporter",
  STAGING_PG_PASSWORD: "demo-staging-password-not-real",
};

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
  process.stdout.write(`\n\x1b[1m$ posthog-gitops ${args.join(" ")}\x1b[0m   # ${title}\n`);
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
    POSTHOG_API_KEY: "phx_emulator",
  };
  process.stdout.write(`emulator listening on ${emulator.url}\n`);
  failed ||= run("offline checks", ["validate", ...paths], env) !== 0;
  failed ||= run("what would change", ["plan", ...paths], env) !== 0;
  failed ||= run("make it so", ["apply", "--auto-approve", ...paths], env) !== 0;
  const again = run("again: nothing left to do", ["plan", "--detailed-exitcode", ...paths], env);
  if (again !== 0) {
    process.stderr.write(`\nthe second plan still shows changes (exit ${again}): apply is not idempotent\n`);
    failed = true;
  }
} finally {
  emulator.stop();
}
process.exitCode = failed ? 1 : 0;
