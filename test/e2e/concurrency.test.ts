/**
 * Two applies of the same new objects at once (SPEC §3 "Concurrency"), made deterministic by a gate: the
 * second apply goes through a proxy that holds its requests at an exact point while the first apply runs
 * from start to end against the same emulator.
 *
 * - Held after its plan's reads (before its look-up): the second apply finds the object the first one
 *   created since its plan, creates nothing, says so and exits 1; nothing is duplicated.
 * - Held at its POST (after its look-up, which found nothing): a race no look-up can win. The second
 *   apply's check afterwards reports the name with both ids and exits 1; following its advice (pin one,
 *   delete the other) converges.
 * - Several new names are looked up together, right before the first create (one re-read of the list
 *   when that is fewer requests than a search each): held there, the second apply creates none.
 * - With more created names than the list has pages, the check afterwards reads the kind's list once
 *   instead of looking each name up.
 */
import { describe, expect, it } from "vitest";
import { type Json, type RunResult, useEmulator } from "../support/emulator.js";
import { type Gate, type GateRequest, gateProxy } from "./gate-proxy.js";

const h = useEmulator();

const KINDS = [
  {
    word: "dashboard",
    name: "Concurrent board",
    key: "dashboards",
    list: /\/dashboards\/?(\?|$)/,
    yaml: (extra = "") =>
      `project: 12345\ndashboards:\n  - name: Concurrent board\n    description: applied twice at once\n${extra}`,
    tombstone: (id: number | string) => `  - name: Concurrent board copy\n    id: ${id}\n    deleted: true\n`,
  },
  {
    word: "batch export",
    name: "Concurrent export",
    key: "batch_exports",
    list: /\/batch_exports\/?(\?|$)/,
    yaml: (extra = "") =>
      `project: 12345\nbatch_exports:\n  - name: Concurrent export\n    model: persons\n    interval: day\n    paused: true\n    destination:\n      type: NoOp\n${extra}`,
    tombstone: (id: number | string) =>
      `  - name: Concurrent export copy\n    id: "${id}"\n    deleted: true\n`,
  },
] as const;

type KindCase = (typeof KINDS)[number];

async function liveIds(kind: KindCase): Promise<Array<number | string>> {
  const state = await h.state();
  return state[kind.key]
    .filter((o: Json) => o.name === kind.name && !o.deleted && o.team_id === 12345)
    .map((o: Json) => o.id);
}

/**
 * Starts the second apply through `gate`; resolves with the request it was stopped at, once it is
 * held (fails if the apply ends first), and the apply's own result.
 */
async function startHeld(gate: Gate): Promise<{ at: GateRequest; second: Promise<RunResult> }> {
  const second = h.cli(["apply", "--auto-approve", "p"], { POSTHOG_HOST: gate.url });
  const ended = second.then((r) => {
    throw new Error(`the second apply ended without being held (exit ${r.code}): ${r.stdout}${r.stderr}`);
  });
  const at = await Promise.race([gate.holding, ended]);
  return { at, second };
}

/** Holds every request after the plan's one list read of the kind: its look-up (or, without one, its POST). */
function afterPlanReads(kind: KindCase) {
  let lists = 0;
  return (r: GateRequest) => {
    if (r.method !== "GET") return true;
    if (kind.list.test(r.url)) lists += 1;
    return lists > 1;
  };
}

describe.each(KINDS)("two applies of a new $word at once", (kind) => {
  it("the second looks the name up right before its create, finds the first's, creates nothing, exit 1", async () => {
    h.write("p/x.yaml", kind.yaml());
    const gate = await gateProxy(() => h.url, afterPlanReads(kind));
    try {
      const { at, second } = await startHeld(gate);
      expect(at.method).toBe("GET");
      const first = await h.cli(["apply", "--auto-approve", "p"]);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const [created] = await liveIds(kind);
      gate.open();
      const late = await second;
      expect(late.code).toBe(1);
      expect(late.stdout).toContain(
        `✗ + create · ${kind.word} "${kind.name}" in project 12345 — create skipped: a ${kind.word} named "${kind.name}" now exists live (id ${created}), created by someone else since the plan; run plan again`,
      );
      expect(late.stdout).toContain("Apply failed: 0 succeeded, 1 failed, 0 skipped.");
      expect(late.stderr).toBe("");
    } finally {
      await gate.close();
    }
    expect(await liveIds(kind)).toHaveLength(1);
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });

  it("when both looked up before either created: the second reports both ids, exit 1; pin and delete converge", async () => {
    h.write("p/x.yaml", kind.yaml());
    const gate = await gateProxy(
      () => h.url,
      (r) => r.method === "POST",
    );
    let late: RunResult;
    try {
      const { at, second } = await startHeld(gate);
      expect(at.method).toBe("POST");
      const first = await h.cli(["apply", "--auto-approve", "p"]);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      gate.open();
      late = await second;
    } finally {
      await gate.close();
    }
    const ids = await liveIds(kind);
    expect(ids).toHaveLength(2);
    // The closing line agrees with the exit code: a name created twice fails the apply.
    expect(late.stdout).toContain(
      "Apply failed: 1 succeeded, 0 failed, 0 skipped; 1 name now has several live objects.",
    );
    const reported =
      /^error: (.+) "(.+)" now has 2 live objects in project 12345 \(ids (\S+), (\S+)\): pin the right one with `id:` and delete the others$/m.exec(
        late.stderr,
      );
    expect(reported?.slice(1, 3)).toEqual([kind.word, kind.name]);
    const named = reported?.slice(3) ?? [];
    expect([...named].sort()).toEqual(ids.map(String).sort());
    expect(late.code).toBe(1);

    // The next plan refuses to guess which one is meant, with the same ids.
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`2 live objects have this name (ids ${named.join(", ")})`);
    // The advice followed: keep the first, delete the second.
    const [keep, drop] = ids as [number | string, number | string];
    const pinned = kind
      .yaml()
      .replace(`  - name: ${kind.name}\n`, `  - name: ${kind.name}\n    id: ${JSON.stringify(keep)}\n`);
    h.write("p/x.yaml", `${pinned}${kind.tombstone(drop)}`);
    const converge = await h.cli(["apply", "--auto-approve", "p"]);
    expect(converge.code, converge.stdout + converge.stderr).toBe(0);
    expect(await liveIds(kind)).toEqual([keep]);
    h.write("p/x.yaml", kind.yaml());
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
  });
});

describe("two applies of a batch of new dashboards at once", () => {
  it("the second, held at its batch look-up (one re-read of the list), creates none of the first's", async () => {
    const names = ["Batch A", "Batch B", "Batch C", "Batch D", "Batch E"];
    h.write("p/x.yaml", `project: 12345\ndashboards:\n${names.map((n) => `  - name: ${n}\n`).join("")}`);
    const gate = await gateProxy(() => h.url, afterPlanReads(KINDS[0]));
    let late: RunResult;
    try {
      const { at, second } = await startHeld(gate);
      expect(`${at.method} ${at.url}`).toMatch(/^GET \/api\/projects\/12345\/dashboards\/\?limit=100$/);
      const first = await h.cli(["apply", "--auto-approve", "p"]);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      gate.open();
      late = await second;
    } finally {
      await gate.close();
    }
    expect(
      late.stdout.match(/create skipped: a dashboard named "Batch [A-E]" now exists live/g),
    ).toHaveLength(5);
    expect(late.stdout).toContain("Apply failed: 0 succeeded, 5 failed, 0 skipped.");
    expect(gate.seen.filter((r) => r.method === "POST")).toEqual([]);
    expect(late.code).toBe(1);
    const live = (await h.state()).dashboards.filter((d: Json) => names.includes(d.name) && !d.deleted);
    expect(live).toHaveLength(5);
  });
});

describe("the check after an apply that created several names", () => {
  it("reads the list once and reports only the name that is live twice", async () => {
    const names = ["Fleet A", "Fleet B", "Fleet C", "Fleet D"];
    const yaml = (list: string[]) =>
      `project: 12345\ndashboards:\n${list.map((n) => `  - name: ${n}\n`).join("")}`;
    h.write("p/x.yaml", yaml(names));
    // Only the create of "Fleet A" waits, after every look-up of the second apply.
    const gate = await gateProxy(
      () => h.url,
      (r) => r.method === "POST" && JSON.parse(r.body).name === "Fleet A",
    );
    let late: RunResult;
    try {
      const { second } = await startHeld(gate);
      h.write("p/x.yaml", yaml(["Fleet A"]));
      expect((await h.cli(["apply", "--auto-approve", "p"])).code).toBe(0);
      gate.open();
      late = await second;
    } finally {
      await gate.close();
    }
    // The closing line agrees with the exit code: a name created twice fails the apply.
    expect(late.stdout).toContain(
      "Apply failed: 4 succeeded, 0 failed, 0 skipped; 1 name now has several live objects.",
    );
    const errors = late.stderr.split("\n").filter((l) => l.startsWith("error: "));
    expect(errors).toEqual([
      expect.stringMatching(
        /^error: dashboard "Fleet A" now has 2 live objects in project 12345 \(ids \d+, \d+\)/,
      ),
    ]);
    expect(late.code).toBe(1);
    const lastPost = gate.seen.findLastIndex((r) => r.method === "POST");
    const after = gate.seen.slice(lastPost + 1).map((r) => `${r.method} ${r.url}`);
    expect(after).toEqual([expect.stringMatching(/^GET \/api\/projects\/12345\/dashboards\/\?limit=100$/)]);
  });
});
