/**
 * Apply across objects (SPEC §3 "Apply order"): an action that `requires` other objects (plan data:
 * a tile's insight) runs after their work, gets the ids they were created with, and is skipped, alone,
 * when that work failed; pinned objects that share a name are worked on as the objects they are; a
 * bound of one object at a time never deadlocks on waiting objects. Test-only kinds, no service.
 */
import { describe, expect, it } from "vitest";
import { applyPlan } from "../../src/apply/apply.js";
import type { ApplyKind, ReferencedIds } from "../../src/apply/kinds.js";
import { UserError } from "../../src/errors.js";
import type { Action, Plan } from "../../src/plan/types.js";
import type { ServiceClient } from "../../src/service/index.js";

const PROJECT = 3;
const client = {} as ServiceClient;

interface Log {
  events: string[];
  seen: Array<{ action: string; id: number | string; parent: number | string | undefined }>;
}

/** A kind whose creates answer after the other work queued (a turn of the event loop each). */
function parentKind(log: Log, failing = new Set<string>()): ApplyKind {
  let next = 100;
  return {
    name: "parent",
    words: { one: "parent", many: "parents" },
    verbs: [{ name: "create" }, { name: "update" }],
    requestBody: (action) => ({ ...action.after }),
    async create(_client, _project, body) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const name = String(body.name);
      if (failing.has(name)) throw new UserError(`refused ${name}`);
      const id = next++;
      log.events.push(`create parent ${name} → ${id}`);
      return { id, notes: [] };
    },
    async send(_client, action, id) {
      log.events.push(`${action.action} parent ${action.object.name} #${id}`);
      return { id, notes: [] };
    },
    findByName: async () => [],
  };
}

function childKind(log: Log): ApplyKind {
  return {
    name: "child",
    words: { one: "child", many: "children" },
    verbs: [{ name: "create" }, { name: "attach" }],
    requestBody: (action) => ({ ...action.after }),
    async create(_client, _project, body) {
      log.events.push(`create child ${String(body.name)}`);
      return { id: 7, notes: [] };
    },
    async send(_client, action, id, _body, referenced?: ReferencedIds) {
      const parent = referenced?.idOf({ kind: "parent", name: String(action.after?.parent) });
      log.events.push(`attach ${action.object.name} to ${String(action.after?.parent)}`);
      log.seen.push({ action: action.action, id, parent });
      return { id, notes: [] };
    },
    findByName: async () => [],
  };
}

function act(kind: string, name: string, action: string, over: Partial<Action> = {}): Action {
  return {
    action,
    object: { kind, project: PROJECT, name, ...(over.object ?? {}) },
    changes: [],
    destructive: false,
    warnings: [],
    ...(over.after ? { after: over.after } : {}),
    ...(over.before ? { before: over.before } : {}),
    // An attach requires its parent (plan data): created in this apply, so no id.
    ...(action === "attach" ? { requires: [{ kind: "parent", name: String(over.after?.parent) }] } : {}),
  };
}

function plan(actions: Action[]): Plan {
  return {
    format_version: "2",
    created_at: "2026-01-01T00:00:00.000Z",
    projects: [PROJECT],
    actions,
    notes: [],
    fingerprints: {},
    summary: { counts: {}, total: actions.length, destructive: false },
  };
}

describe("apply across objects", () => {
  it("runs what an action refers to first and hands over the id it was created with", async () => {
    const log: Log = { events: [], seen: [] };
    const actions = [
      // The child's group is listed first, and would run first without its reference.
      act("child", "Board", "attach", {
        object: { kind: "child", project: PROJECT, name: "Board", id: 7 },
        after: { parent: "Signups" },
      }),
      act("parent", "Signups", "create", { after: { name: "Signups" } }),
    ];
    const results = await applyPlan(plan(actions), {
      kinds: [parentKind(log), childKind(log)],
      client,
      env: {},
    });
    expect(results.map((r) => r.outcome)).toEqual(["ok", "ok"]);
    expect(log.events).toEqual(["create parent Signups → 100", "attach Board to Signups"]);
    expect(log.seen).toEqual([{ action: "attach", id: 7, parent: 100 }]);
  });

  it("skips only the actions whose referenced object failed; the object's other work goes on", async () => {
    const log: Log = { events: [], seen: [] };
    const board = { kind: "child", project: PROJECT, name: "Board", id: 7 };
    const actions = [
      act("child", "Board", "attach", { object: board, after: { parent: "Broken" } }),
      act("child", "Board", "attach", { object: board, after: { parent: "Fine" } }),
      act("parent", "Broken", "create", { after: { name: "Broken" } }),
      act("parent", "Fine", "create", { after: { name: "Fine" } }),
    ];
    const results = await applyPlan(plan(actions), {
      kinds: [parentKind(log, new Set(["Broken"])), childKind(log)],
      client,
      env: {},
      concurrency: 1,
    });
    const byAction = results.map((r) => [
      r.action.object.name,
      r.action.after?.parent ?? "",
      r.outcome,
      r.error ?? "",
    ]);
    expect(byAction).toEqual(
      expect.arrayContaining([
        ["Broken", "", "failed", "refused Broken"],
        ["Fine", "", "ok", ""],
        ["Board", "Broken", "skipped", 'skipped: the work on parent "Broken" failed'],
        ["Board", "Fine", "ok", ""],
      ]),
    );
    expect(results).toHaveLength(4);
    expect(log.seen).toEqual([{ action: "attach", id: 7, parent: 100 }]);
  });

  it("never deadlocks with one slot while many objects wait for one", async () => {
    const log: Log = { events: [], seen: [] };
    const actions: Action[] = [];
    for (let i = 0; i < 12; i++) {
      actions.push(
        act("child", `Board ${i}`, "attach", {
          object: { kind: "child", project: PROJECT, name: `Board ${i}`, id: 1000 + i },
          after: { parent: "Shared" },
        }),
      );
    }
    actions.push(act("parent", "Shared", "create", { after: { name: "Shared" } }));
    const results = await applyPlan(plan(actions), {
      kinds: [parentKind(log), childKind(log)],
      client,
      env: {},
      concurrency: 1,
    });
    expect(results.every((r) => r.outcome === "ok")).toBe(true);
    expect(log.events[0]).toBe("create parent Shared → 100");
    expect(new Set(log.seen.map((s) => s.parent))).toEqual(new Set([100]));
  });

  it("works on pinned objects that share a name as the objects they are", async () => {
    const log: Log = { events: [], seen: [] };
    const actions = [
      act("parent", "Same", "update", { object: { kind: "parent", project: PROJECT, name: "Same", id: 5 } }),
      act("parent", "Same", "update", { object: { kind: "parent", project: PROJECT, name: "Same", id: 6 } }),
    ];
    const results = await applyPlan(plan(actions), { kinds: [parentKind(log)], client, env: {} });
    expect(results.map((r) => r.id).sort()).toEqual([5, 6]);
    expect(log.events.sort()).toEqual(["update parent Same #5", "update parent Same #6"]);
  });
});
