/**
 * The `version` input: with a version or range, the action installs that release of posthog-gitops with
 * npm into RUNNER_TEMP and runs its bin as a child process, with the same arguments and the API key in
 * its environment only. npm talks to a fake registry on loopback that serves a stand-in release (a CLI
 * that records how it was called), so no test reaches the network. Anything but a registry version is
 * refused before npm runs.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { installEnv } from "../../src/action/install.js";
import { act, KEY } from "./harness.js";

const RELEASE = "9.9.9";

/** The stand-in release's CLI: logs each call, then acts like `plan --out` (2: changes) or `apply`. */
const FAKE_CLI = `#!/usr/bin/env node
import { createHash } from "node:crypto";
import { appendFileSync, writeFileSync } from "node:fs";
const args = process.argv.slice(2);
const key = process.env.POSTHOG_API_KEY;
appendFileSync(process.env.FAKE_CLI_LOG, JSON.stringify({
  args,
  cwd: process.cwd(),
  key: key ? createHash("sha256").update(key).digest("hex") : null,
  inputs: Object.keys(process.env).filter((name) => name.startsWith("INPUT_")),
}) + "\\n");
if (args[0] === "plan") {
  writeFileSync(args[args.indexOf("--out") + 1], JSON.stringify({ plan: { summary: { total: 1, destructive: true } } }));
  process.stdout.write("<!-- posthog-gitops plan: 1 -->\\n### fake plan\\n");
  process.exit(2);
}
console.log("applied by the stand-in");
`;

let registry: Server;
let registryUrl: string;
let seen: string[];
let root: string;
let dir: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "posthog-gitops-registry-"));
  const pkg = join(root, "package");
  mkdirSync(join(pkg, "bin"), { recursive: true });
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({
      name: "posthog-gitops",
      version: RELEASE,
      type: "module",
      bin: { "posthog-gitops": "bin/posthog-gitops.js" },
    }),
  );
  writeFileSync(join(pkg, "bin/posthog-gitops.js"), FAKE_CLI);
  execFileSync("tar", ["-czf", join(root, "release.tgz"), "-C", root, "package"]);
  const tarball = readFileSync(join(root, "release.tgz"));
  registry = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    if (req.url === "/posthog-gitops") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          name: "posthog-gitops",
          "dist-tags": { latest: RELEASE },
          versions: {
            [RELEASE]: {
              name: "posthog-gitops",
              version: RELEASE,
              bin: { "posthog-gitops": "bin/posthog-gitops.js" },
              dist: {
                tarball: `${registryUrl}/posthog-gitops/-/posthog-gitops-${RELEASE}.tgz`,
                integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
                shasum: createHash("sha1").update(tarball).digest("hex"),
              },
            },
          },
        }),
      );
    } else if (req.url === `/posthog-gitops/-/posthog-gitops-${RELEASE}.tgz`) {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(tarball);
    } else {
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => registry.close(resolve));
  rmSync(root, { recursive: true, force: true });
});
beforeEach((context) => {
  seen = [];
  dir = mkdtempSync(join(tmpdir(), "posthog-gitops-version-"));
  context.onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
});

function run(inputs: Record<string, string>) {
  const npmHome = join(dir, "npm");
  mkdirSync(npmHome, { recursive: true });
  writeFileSync(join(npmHome, "npmrc"), "");
  return act({
    dir,
    inputs: { "api-key": KEY, paths: "test/fixtures/single-project/production", ...inputs },
    env: {
      FAKE_CLI_LOG: join(dir, "calls.jsonl"),
      npm_config_registry: `${registryUrl}/`,
      npm_config_cache: join(npmHome, "cache"),
      npm_config_userconfig: join(npmHome, "npmrc"),
      npm_config_update_notifier: "false",
    },
  });
}

const calls = (): { args: string[]; key: string | null; inputs: string[] }[] =>
  readFileSync(join(dir, "calls.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("the version input", () => {
  it("installs that release into RUNNER_TEMP and runs its CLI for plan and apply", async () => {
    const r = await run({ command: "apply", version: RELEASE, prune: "true" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Running posthog-gitops ${RELEASE}, installed from npm, on Node.js`);
    expect(r.stdout).toContain(`::group::Install posthog-gitops@${RELEASE} from the npm registry`);
    expect(seen).toEqual(["GET /posthog-gitops ", `GET /posthog-gitops/-/posthog-gitops-${RELEASE}.tgz `]);
    const planFile = r.outputs["plan-file"] ?? "";
    expect(planFile.startsWith(r.runnerTemp)).toBe(true);
    expect(r.outputs).toMatchObject({ "has-changes": "true", destructive: "true" });
    expect(r.markdown).toBe("<!-- posthog-gitops plan: 1 -->\n### fake plan\n");
    expect(r.stdout).toContain("applied by the stand-in");
    expect(calls()).toEqual([
      {
        args: [
          "plan",
          "--format",
          "markdown",
          "--out",
          planFile,
          "--detailed-exitcode",
          "--prune",
          "--",
          "test/fixtures/single-project/production",
        ],
        cwd: expect.any(String),
        key: sha256(KEY),
        inputs: [],
      },
      {
        args: ["apply", "--auto-approve", "--plan", planFile],
        cwd: expect.any(String),
        key: sha256(KEY),
        inputs: [],
      },
    ]);
  });

  it("accepts a range", async () => {
    const r = await run({ command: "plan", version: "^9.9" });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Running posthog-gitops ${RELEASE}, installed from npm, on Node.js`);
  });

  it("fails the step when npm cannot install it", async () => {
    const r = await run({ command: "plan", version: "0.0.1" });
    expect(r.code).toBe(1);
    expect(r.commands.find((c) => c.command === "error")?.value).toContain(
      "npm could not install posthog-gitops@0.0.1",
    );
  });

  it("refuses anything but a registry version before npm runs", async () => {
    for (const version of [
      "file:../evil",
      "github:someone/posthog-gitops",
      "../x",
      "1.0.0; rm -rf /",
      "-v",
    ]) {
      const r = await run({ command: "plan", version });
      expect(r.code, version).toBe(1);
      expect(r.commands.find((c) => c.command === "error")?.value).toMatch(/^input version must be/);
    }
    expect(seen).toEqual([]);
  });

  it("gives npm the runner's environment without the API key and the inputs", () => {
    expect(
      installEnv({ PATH: "/bin", POSTHOG_API_KEY: KEY, "INPUT_API-KEY": KEY, npm_config_registry: "r" }),
    ).toEqual({
      PATH: "/bin",
      npm_config_registry: "r",
    });
  });
});
