/**
 * Convergence under faults: 10% of API requests answered 502 (seeded, so the same requests fail on every
 * run), about 5% answered 429 (rules with a zero Retry-After to keep the suite fast) and lost create
 * answers. At most two applies converge, no object is duplicated, and nothing the plan did not name is
 * touched.
 */
import { describe, expect, it } from "vitest";
import { type Json, S3_EXPORT_ID, USER_UUIDS, useEmulator } from "../support/emulator.js";

const h = useEmulator();
const BOARDS = 24;
const EXPORTS = 6;
const SECRETS = { F_AK: "SECRET_VALUE_zq9x_fault_ak", F_SK: "SECRET_VALUE_zq9x_fault_sk" };

function config(): string {
  const lines = ["project: 12345", "dashboards:"];
  for (let i = 0; i < BOARDS; i++) {
    lines.push(
      `  - name: Fault board ${i}`,
      `    description: made under faults (${i})`,
      `    tags: [f${i}]`,
    );
    if (i % 3 === 0) {
      lines.push("    restriction_level: only_collaborators", "    collaborators:");
      lines.push(`      - user_uuid: ${USER_UUIDS.bob}`, "        level: can_edit");
    }
    if (i % 4 === 1) lines.push("    sharing:", "      enabled: true");
  }
  lines.push("  - name: Product KPIs", "    pinned: false", "    sharing:", "      enabled: false");
  lines.push("  - name: Marketing Overview", "    description: edited under faults");
  lines.push("batch_exports:", "  - name: Events to S3", "    paused: true");
  for (let i = 0; i < EXPORTS; i++) {
    lines.push(
      `  - name: fault-export-${i}`,
      "    model: events",
      "    interval: day",
      "    destination:",
      "      type: AwsS3",
      "      integration: 1",
      "      config:",
      `        bucket_name: fault-${i}`,
      "        region: us-east-1",
      "        prefix: f/",
    );
  }
  return `${lines.join("\n")}\n`;
}

const FAULTS = {
  error_rate: 0.1,
  error_status: 502,
  seed: Number(process.env.E2E_FAULT_SEED ?? 2),
  rules: [
    { method: "POST", path: "/dashboards/?$", lose_response: true, times: 1 },
    { method: "POST", path: "/batch_exports/?$", lose_response: true, times: 1 },
    { method: "GET", path: "/dashboards/?$", status: 429, retry_after: 0, times: 1 },
    { method: "PATCH", path: "/dashboards/\\d+/?$", status: 429, retry_after: 0, times: 1 },
    { method: "POST", path: "/collaborators/?$", status: 429, retry_after: 0, times: 1 },
    { method: "POST", path: "/batch_exports/?$", status: 429, retry_after: 0, times: 1 },
    { method: "GET", path: "/batch_exports/?$", status: 429, retry_after: 0, times: 1 },
    { method: "PATCH", path: "/sharing/?$", status: 429, retry_after: 0, times: 1 },
  ],
};

/** Objects of project 12345 the plan does not name (by id), optionally only those in `only`. */
interface Untouched {
  dashboards: Json[];
  collaborators: Json[];
  sharing: Json[];
  exports: Json[];
}

function untouched(state: Json, named: Set<string>, only?: Untouched): Untouched {
  const keepDash = (d: Json) =>
    d.team_id === 12345 &&
    !named.has(`dashboard/${d.id}`) &&
    (!only || only.dashboards.some((o: Json) => o.id === d.id));
  const dashboards = state.dashboards.filter(keepDash);
  const ids = new Set(dashboards.map((d: Json) => d.id));
  return {
    dashboards,
    collaborators: state.collaborators.filter((c: Json) => ids.has(c.dashboard_id)),
    sharing: state.sharing.filter((s: Json) => ids.has(s.dashboard_id)),
    exports: state.batch_exports.filter(
      (b: Json) =>
        !named.has(`batch_export/${b.id}`) && (!only || only.exports.some((o: Json) => o.id === b.id)),
    ),
  };
}

describe("apply under faults", () => {
  it("converges within two applies: no duplicates, nothing outside the plan changed", async () => {
    h.write("p/all.yaml", config());
    const planned = JSON.parse((await h.cli(["plan", "--format", "json", "p"])).stdout);
    const named = new Set<string>(
      planned.actions
        .filter((a: Json) => a.object.id !== undefined)
        .map((a: Json) => `${a.object.kind}/${a.object.id}`),
    );
    const before = untouched(await h.state(), named);
    await h.clearRequests();
    await h.faults(FAULTS);

    const outputs: string[] = [];
    let converged = false;
    for (let attempt = 1; attempt <= 2 && !converged; attempt++) {
      // One request at a time: the seeded error rate then picks the same requests on every run.
      const apply = await h.cli(["apply", "--auto-approve", "--concurrency", "1", "p"], SECRETS);
      outputs.push(apply.stdout, apply.stderr);
      converged = apply.code === 0;
      process.stderr.write(
        `faults: apply ${attempt} exit ${apply.code}\n${apply.stdout
          .split("\n")
          .filter((l) => /✗|note/.test(l))
          .join("\n")}\n`,
      );
    }
    const plan = await h.cli(["plan", "--detailed-exitcode", "p"]);
    outputs.push(plan.stdout, plan.stderr);
    expect(plan.stdout).toContain("No changes");
    expect(plan.code).toBe(0);

    const log = await h.requests();
    const faulted = (kind: string) =>
      log.filter((r) => r.fault === kind || (kind === "429" && r.status === 429));
    expect(log.filter((r) => r.status === 502).length).toBeGreaterThan(0);
    expect(faulted("429")).toHaveLength(6);
    expect(faulted("lose_response")).toHaveLength(2);
    process.stderr.write(
      `faults: ${log.length} requests, ${log.filter((r) => r.status === 502).length} 502, ${faulted("429").length} 429, 2 lost answers\n`,
    );

    const state = await h.state();
    const liveNames = (list: Json[]) =>
      list.filter((o) => !o.deleted && o.team_id === 12345).map((o) => o.name);
    const dashboards = liveNames(state.dashboards);
    const exports = liveNames(state.batch_exports);
    expect(new Set(dashboards).size).toBe(dashboards.length);
    expect(new Set(exports).size).toBe(exports.length);
    expect(dashboards.filter((n: string) => n.startsWith("Fault board"))).toHaveLength(BOARDS);
    expect(exports.filter((n: string) => n.startsWith("fault-export"))).toHaveLength(EXPORTS);
    expect(state.batch_exports.find((b: Json) => b.id === S3_EXPORT_ID).paused).toBe(true);
    expect(before.dashboards.length).toBeGreaterThan(0);
    expect(before.exports.length).toBeGreaterThan(0);
    expect(untouched(state, named, before)).toEqual(before);
    expect(outputs.join("\n")).not.toContain("SECRET_VALUE_zq9x");
  });

  it("a lost create answer is resolved by looking the name up: one object, one apply", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Lost answer\n    pinned: true\n");
    await h.faults({ rules: [{ method: "POST", path: "/dashboards/?$", lose_response: true, times: 1 }] });
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toMatch(/answer was lost; found the created object by name/);
    const posts = (await h.requests()).filter((r) => r.method === "POST");
    expect(posts).toHaveLength(1);
    expect((await h.state()).dashboards.filter((d: Json) => d.name === "Lost answer")).toHaveLength(1);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });

  it("a collaborator add whose answer was lost is sent again and counts as done", async () => {
    h.write(
      "p/d.yaml",
      `project: 12345\ndashboards:\n  - name: Revenue\n    restriction_level: only_collaborators\n    collaborators:\n      - user_uuid: ${USER_UUIDS.carol}\n      - user_uuid: ${USER_UUIDS.bob}\n`,
    );
    await h.faults({ rules: [{ method: "POST", path: "/collaborators/?$", lose_response: true, times: 1 }] });
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.stdout).not.toContain("✗");
    expect(apply.code).toBe(0);
    const revenue = (await h.state()).collaborators.filter((c: Json) => c.dashboard_id === 3);
    expect(revenue.map((c: Json) => c.user).sort()).toEqual([2, 3]);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });

  it("a create reset before the service saw it is sent again, once", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Reset create\n");
    await h.faults({ rules: [{ method: "POST", path: "/dashboards/?$", reset: true, times: 1 }] });
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code).toBe(0);
    expect((await h.state()).dashboards.filter((d: Json) => d.name === "Reset create")).toHaveLength(1);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});
