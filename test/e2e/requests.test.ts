/**
 * SPEC §6 from the emulator's request log: `plan` sends GET requests only, and a no-op plan of D
 * dashboards and B exports sends at most ceil(D/100) + ceil(B/100) list pages, plus one request per
 * dashboard declaring `collaborators` and one per dashboard declaring `sharing`.
 */
import { describe, expect, it } from "vitest";
import { type EmulatorHarness, type LoggedRequest, useEmulator } from "../support/emulator.js";
import { bigSeed, collaboratorUuids } from "./seeds.js";

const h = useEmulator();
const D = 250;
const B = 120;

/** YAML declaring every generated object; `collaborators` on the first 20 restricted, `sharing` on 10. */
function declareAll(change?: { dashboard: number; description: string; tags?: string[] }): string {
  const lines = ["project: 12345", "dashboards:"];
  let withCollaborators = 0;
  for (let i = 0; i < D; i++) {
    lines.push(`  - name: Dashboard ${String(i).padStart(4, "0")}`);
    if (i % 10 === 0 && withCollaborators < 20) {
      withCollaborators++;
      lines.push("    restriction_level: only_collaborators", "    collaborators:");
      for (const uuid of collaboratorUuids(i))
        lines.push(`      - user_uuid: ${uuid}`, "        level: can_edit");
    }
    if (i % 25 === 0) lines.push("    sharing:", "      enabled: true");
    if (change?.dashboard === i) {
      lines.push(`    description: ${change.description}`);
      if (change.tags) lines.push(`    tags: [${change.tags.join(", ")}]`);
    }
  }
  lines.push("batch_exports:");
  for (let i = 0; i < B; i++) {
    lines.push(
      `  - name: Export ${String(i).padStart(4, "0")}`,
      `    interval: ${i % 2 === 0 ? "hour" : "day"}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

async function seedBig(e: EmulatorHarness) {
  await e.seed(bigSeed(await e.state(), { dashboards: D, exports: B, restrictedEvery: 10, sharedEvery: 25 }));
  await e.clearRequests();
}

const api = (r: LoggedRequest) => r.path.startsWith("/api/");

describe("plan's requests", () => {
  it(`a no-op plan of ${D} dashboards and ${B} exports stays within the SPEC §6 bound`, async () => {
    await seedBig(h);
    h.write("posthog/all.yaml", declareAll());
    const result = await h.cli(["plan", "--detailed-exitcode", "posthog"]);
    expect(result.stdout).toContain("No changes");
    expect(result.code).toBe(0);

    const requests = (await h.requests()).filter(api);
    expect(requests.every((r) => r.method === "GET")).toBe(true);
    const bound = Math.ceil(D / 100) + Math.ceil(B / 100) + 20 + 10;
    // The list's is_shared already agrees with every declared sharing switch, so no sharing GET is needed.
    const minimum = Math.ceil(D / 100) + Math.ceil(B / 100) + 20;
    expect(requests.length).toBeLessThanOrEqual(bound);
    const lists = requests.filter((r) => /\/(dashboards|batch_exports)\/?$/.test(r.path));
    expect(lists).toHaveLength(Math.ceil(D / 100) + Math.ceil(B / 100));
    expect(requests.filter((r) => r.path.includes("/collaborators"))).toHaveLength(20);
    expect(requests.filter((r) => r.path.includes("/sharing"))).toHaveLength(0);
    expect(requests).toHaveLength(minimum);
    // Measured numbers, printed for the report.
    process.stderr.write(`no-op plan: ${requests.length} requests (bound ${bound}, minimum ${minimum})\n`);
  });

  it("a plan with changes, tags (feature lookup) and --prune still sends GET requests only", async () => {
    await seedBig(h);
    const yaml = declareAll({ dashboard: 7, description: "changed by e2e", tags: ["new-tag"] })
      .split("\n")
      .filter((l) => !l.includes("Dashboard 0249"))
      .join("\n");
    h.write("posthog/all.yaml", yaml);
    const result = await h.cli(["plan", "--detailed-exitcode", "--prune", "posthog"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('"Dashboard 0007"');
    expect(result.stdout).toContain('"Dashboard 0249"');
    const requests = (await h.requests()).filter(api);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("with --verbose the request log on stderr names methods and paths but never the key", async () => {
    await seedBig(h);
    h.write("posthog/all.yaml", declareAll());
    const result = await h.cli(["plan", "--verbose", "posthog"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/GET/);
    expect(result.stderr).not.toContain(h.key);
  });

  it("stays under the service's rate limit: paced by POSTHOG_RATE_LIMIT, and honours Retry-After", async () => {
    await seedBig(h);
    const lines = Array.from({ length: 30 }, (_, i) => `  - name: Dashboard ${String(i).padStart(4, "0")}`);
    h.write(
      "s/d.yaml",
      // Every switch differs from the list's is_shared, so each is confirmed with a sharing GET: 30+ requests.
      `project: 12345\ndashboards:\n${lines.map((l) => `${l}\n    sharing:\n      enabled: ${!/0000|0025/.test(l)}`).join("\n")}\n`,
    );
    for (const env of [{ POSTHOG_RATE_LIMIT: "15/1s" }, {}]) {
      await h.faults({ rate_limit: { requests: 15, window_seconds: 1 } });
      await h.clearRequests();
      const result = await h.cli(["plan", "--detailed-exitcode", "s"], env);
      expect(result.code, result.stderr).toBe(2);
      const throttled = (await h.requests()).filter((r) => r.status === 429).length;
      if (env.POSTHOG_RATE_LIMIT) {
        expect(throttled).toBe(0);
        expect((await h.requests()).filter((r) => r.path.includes("/sharing")).length).toBe(30);
      } else expect(throttled).toBeGreaterThan(0);
    }
  });
});
