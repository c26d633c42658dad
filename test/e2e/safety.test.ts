/**
 * The reconciler's guards through the real CLI: the prune threshold, `ignore:` globs and unlisted kinds,
 * ambiguous names, bad files, and secrets missing at apply time. Each asserts on the emulator's
 * state or request log that nothing was written when the command refused.
 */

import { describe, expect, it } from "vitest";
import { main } from "../../src/cli.js";
import type { Answer } from "../../src/io.js";
import { type EmulatorHarness, type Json, P, recordRun, useEmulator } from "../support/emulator.js";
import { memoryIo } from "../support/io.js";
import { bigSeed } from "./seeds.js";

const h = useEmulator();

const writes = async (e: EmulatorHarness) =>
  (await e.requests()).filter((r) => r.method !== "GET" && r.path.startsWith("/api/"));

/** 30 live dashboards (Dashboard 0000..0029) and 3 exports in project 12345. */
async function seedThirty(e: EmulatorHarness) {
  await e.seed(
    bigSeed(await e.state(), { dashboards: 30, exports: 3, restrictedEvery: 1000, sharedEvery: 1000 }),
  );
  await e.clearRequests();
}

const names = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `  - name: Dashboard ${String(from + i).padStart(4, "0")}`);

describe("prune guard", () => {
  it("refuses more than max(5, 20%) deletes without --force: exit 1 and nothing sent", async () => {
    await seedThirty(h);
    // 30 live, limit max(5, 6) = 6: declaring 23 prunes 7.
    h.write("p/d.yaml", ["project: 12345", "dashboards:", ...names(0, 23), ""].join("\n"));
    const plan = await h.cli(["plan", "--prune", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(
      /refusing a plan that deletes 7 of 30 dashboards in project 12345 \(limit 6\)/,
    );
    const apply = await h.cli(["apply", "--prune", "--auto-approve", "p"]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/refusing/);
    expect(await writes(h)).toEqual([]);
  });

  it("allows exactly the limit without --force, and more with --force", async () => {
    await seedThirty(h);
    h.write("p/d.yaml", ["project: 12345", "dashboards:", ...names(0, 24), ""].join("\n"));
    expect((await h.cli(["apply", "--prune", "--auto-approve", "p"])).code).toBe(0);
    expect((await writes(h)).filter((r) => r.method === "PATCH")).toHaveLength(6);

    h.write("p/d.yaml", ["project: 12345", "dashboards:", ...names(0, 10), ""].join("\n"));
    expect((await h.cli(["apply", "--prune", "--auto-approve", "p"])).code).toBe(1);
    const forced = await h.cli(["apply", "--prune", "--force", "--auto-approve", "p"]);
    expect(forced.code).toBe(0);
    const live = (await h.state()).dashboards.filter((d: Json) => d.team_id === 12345 && !d.deleted);
    expect(live.map((d: Json) => d.name).sort()).toEqual(names(0, 10).map((n) => n.slice(10)));
    expect((await h.cli(["plan", "--prune", "--detailed-exitcode", "p"])).code).toBe(0);
  });

  it("never prunes names matching `ignore:` nor kinds the files do not list", async () => {
    await seedThirty(h);
    const before = await h.state();
    h.write(
      "p/d.yaml",
      [
        "project: 12345",
        "ignore:",
        '  dashboards: ["Dashboard 001*", "Dashboard 002?"]',
        "dashboards:",
        ...names(0, 5),
        "",
      ].join("\n"),
    );
    const plan = JSON.parse((await h.cli(["plan", "--prune", "--format", "json", "p"])).stdout);
    const pruned = plan.actions.map((a: Json) => `${a.action} ${a.object.name}`).sort();
    expect(pruned).toEqual(names(5, 10).map((n) => `soft_delete ${n.slice(10)}`));
    expect((await h.cli(["apply", "--prune", "--auto-approve", "p"])).code).toBe(0);
    const after = await h.state();
    expect(after.batch_exports).toEqual(before.batch_exports);
    const alive = after.dashboards.filter((d: Json) => d.team_id === 12345 && !d.deleted).length;
    expect(alive).toBe(25);
    expect((await h.cli(["plan", "--prune", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});

describe("ambiguous names", () => {
  it("two live dashboards with the declared name: an error naming both ids, exit 1, nothing sent", async () => {
    const a = await h.api("POST", `${P}/dashboards/`, { name: "Twin" });
    const b = await h.api("POST", `${P}/dashboards/`, { name: "Twin" });
    await h.clearRequests();
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Twin\n    pinned: true\n");
    for (const args of [
      ["plan", "p"],
      ["apply", "--auto-approve", "p"],
    ]) {
      const result = await h.cli(args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`ids ${a.body.id}, ${b.body.id}`);
      expect(result.stderr).toContain("p/d.yaml:3:");
    }
    expect(await writes(h)).toEqual([]);
    // A pin resolves it.
    h.write(
      "p/d.yaml",
      `project: 12345\ndashboards:\n  - name: Twin\n    id: ${b.body.id}\n    pinned: true\n`,
    );
    expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
    const twins = (await h.state()).dashboards.filter((d: Json) => d.name === "Twin");
    expect(twins.map((d: Json) => [d.id, d.pinned])).toEqual([
      [a.body.id, false],
      [b.body.id, true],
    ]);
  });
});

describe("bad files", () => {
  it("plan and apply report schema and semantic errors together; nothing is sent", async () => {
    h.write(
      "p/a.yaml",
      'project: 12345\ndashboards:\n  - name: Weekly\n    pinned: "yes"\n  - name: Twice\n',
    );
    h.write(
      "p/b.yaml",
      [
        "project: 12345",
        "dashboards:",
        "  - name: Twice",
        "batch_exports:",
        "  - name: pg",
        "    destination:",
        "      type: Postgres",
        "      config:",
        "        host: h",
        "        database: d",
        "        user: ${E2E_PG_USER}",
        "        password: ${E2E_PG_PASSWORD}",
        "",
      ].join("\n"),
    );
    await h.clearRequests();
    for (const command of [["plan"], ["apply", "--auto-approve"]]) {
      const out = await h.cli([...command, "p"]);
      expect(out.code).toBe(1);
      expect(out.stdout).toBe("");
      expect(out.stderr).toBe(
        [
          'p/a.yaml:4:13: error: pinned of dashboard "Weekly" must be true or false; got "yes"',
          'p/b.yaml:3:5: error: duplicate dashboard name "Twice" in project 12345: also declared at p/a.yaml:5:5',
          // No plan is made, so none sends a secret: the unset variables are not its business yet.
          "error: the configuration has 2 errors; nothing was sent",
          "",
        ].join("\n"),
      );
    }
    expect(await h.requests()).toEqual([]);
  });
});

describe("secrets at apply time", () => {
  it("fails before any write when a needed secret variable is missing", async () => {
    h.write(
      "p/b.yaml",
      [
        "project: 12345",
        "dashboards:",
        "  - name: Written only if secrets are there",
        "batch_exports:",
        "  - name: needs-secrets",
        "    model: events",
        "    interval: day",
        "    destination:",
        "      type: S3",
        "      config:",
        "        bucket_name: b",
        "        region: us-east-1",
        "        prefix: p/",
        `        aws_access_key_id: \${E2E_AK}`,
        `        aws_secret_access_key: \${E2E_SK}`,
        "",
      ].join("\n"),
    );
    expect((await h.cli(["plan", "p"])).code).toBe(0);
    const apply = await h.cli(["apply", "--auto-approve", "p"], { E2E_AK: "SECRET_VALUE_zq9x_ak" });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain("$E2E_SK");
    expect(apply.stderr).not.toContain("$E2E_AK");
    expect(apply.stdout + apply.stderr).not.toContain("SECRET_VALUE_zq9x_ak");
    expect(await writes(h)).toEqual([]);
  });
});

describe("service refusals while reading", () => {
  it("names the project when the service does not know it", async () => {
    h.write("p/d.yaml", "project: 99999\ndashboards:\n  - name: Anything\n");
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toBe(
      "p/d.yaml:1:10: error: project 99999 cannot be reached with this key (GET dashboards: 404: Project not found.): check the id, that the key's user is a member of the project, and that the key is not limited to other projects (posthog-gitops whoami shows which it may reach)\n",
    );
  });
});

describe("confirmation", () => {
  async function applyAnswering(answer: Answer) {
    const mem = memoryIo(h.env(), h.dir);
    const questions: string[] = [];
    mem.io.confirm = async (question) => {
      questions.push(question);
      return answer;
    };
    const code = await main(["node", "posthog-gitops", "apply", "p"], mem.io.env, mem.io);
    recordRun(["apply", "p"], mem.io.env, { code, stdout: mem.stdout, stderr: mem.stderr });
    return { code, questions, stderr: mem.stderr };
  }

  it("asks on a terminal; 'no' changes nothing, 'yes' applies", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Asked first\n");
    await h.clearRequests();
    const declined = await applyAnswering("no");
    expect(declined.questions).toEqual(["Apply this change?"]);
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain("Apply cancelled. Nothing was changed.");
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
    const accepted = await applyAnswering("yes");
    expect(accepted.code).toBe(0);
    expect((await h.state()).dashboards.some((d: { name: string }) => d.name === "Asked first")).toBe(true);
  });

  it("refuses without a terminal unless --auto-approve, before any request", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Not asked\n");
    await h.clearRequests();
    const result = await h.cli(["apply", "p"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("pass --auto-approve");
    expect(await h.requests()).toEqual([]);
  });
});
