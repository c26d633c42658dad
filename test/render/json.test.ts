import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { ACTION_KINDS } from "../../src/kinds/index.js";
import { renderJson } from "../../src/render/json.js";
import {
  act,
  buildPlan,
  dashboard,
  emptyPlan,
  everyVerbPlan,
  kindsIn,
  mixedPlan,
  SECRET_VARIABLE,
} from "./fixtures.js";

const schema = JSON.parse(readFileSync(new URL("../../schemas/plan.schema.json", import.meta.url), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

function errors(value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe("renderJson", () => {
  it("is the plan value itself, 2-space indented and newline-terminated", () => {
    const plan = mixedPlan();
    const text = renderJson(plan);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toContain('\n  "format_version": "2",\n');
    expect(JSON.parse(text)).toEqual(plan);
  });

  it("keeps a SecretRef as a SecretRef", () => {
    const parsed = JSON.parse(renderJson(mixedPlan()));
    const update = parsed.actions.find(
      (a: { object: { name: string } }) => a.object.name === "Nightly Snowflake",
    );
    expect(update.changes[1]).toEqual({
      path: "destination.config.password",
      after: {
        $secret: `\${${SECRET_VARIABLE}}`,
        variables: [SECRET_VARIABLE],
      },
      secret: true,
    });
  });
});

describe("plan.schema.json", () => {
  it("accepts a plan holding every action kind", () => {
    const plan = everyVerbPlan();
    expect(kindsIn(plan)).toEqual(ACTION_KINDS);
    expect(errors(JSON.parse(renderJson(plan)))).toEqual([]);
  });

  it("accepts the empty plan", () => {
    expect(errors(JSON.parse(renderJson(emptyPlan())))).toEqual([]);
  });

  const base = () => JSON.parse(renderJson(mixedPlan()));
  /** The parsed JSON, typed loosely enough to be broken on purpose. */
  type Loose = {
    format_version: string;
    created_at: string;
    actions: Array<{
      action: string;
      object: { name?: string; source: { line: number } };
      before?: unknown;
      after?: unknown;
      changes: Array<{ after?: unknown }>;
      destructive: boolean;
      extra?: number;
    }>;
    summary: { counts: Record<string, number>; destructive: boolean };
  };
  const find = (p: Loose, action: string, name?: string) => {
    const found = p.actions.find(
      (a) => a.action === action && (name === undefined || a.object.name === name),
    );
    if (found === undefined) throw new Error(`no ${action} in the fixture`);
    return found;
  };
  const cases: Array<[string, (p: Loose) => void]> = [
    ["another format_version", (p) => (p.format_version = "1")],
    [
      "a link in `requires` without a name",
      (p) => ((find(p, "create") as Record<string, unknown>).requires = [{ kind: "insight", id: 3 }]),
    ],
    [
      "a link in `required_by` with an unknown key",
      (p) => ((find(p, "create") as Record<string, unknown>).required_by = [{ kind: "x", name: "y", at: 1 }]),
    ],
    ["a created_at that is not a date-time", (p) => (p.created_at = "yesterday")],
    ["an unknown action", (p) => (find(p, "create").action = "rename")],
    ["a destructive flag that disagrees with the action", (p) => (find(p, "delete").destructive = false)],
    ["a summary that hides a destructive action", (p) => (p.summary.destructive = false)],
    [
      "a summary that claims a destructive action",
      (p) => (p.actions = p.actions.filter((a) => !a.destructive)),
    ],
    ["a create with a before", (p) => (find(p, "create").before = { name: "x" })],
    ["a delete with an after", (p) => (find(p, "delete").after = {})],
    [
      "a secret change carrying a plain value",
      (p) => {
        const change = find(p, "update", "Nightly Snowflake").changes[1];
        if (change !== undefined) change.after = "hunter2";
      },
    ],
    ["an unknown key on an action", (p) => (find(p, "create").extra = 1)],
    ["a summary count for an unknown action", (p) => (p.summary.counts.rename = 1)],
    ["an object without a name", (p) => delete find(p, "create").object.name],
    ["a source line of 0", (p) => (find(p, "create").object.source.line = 0)],
  ];
  it.each(cases)("rejects %s", (_name, mutate) => {
    const plan = base() as Loose;
    expect(errors(plan)).toEqual([]);
    mutate(plan);
    expect(errors(plan)).not.toEqual([]);
  });

  it("checks a builder plan with one action of each kind on its own", () => {
    for (const kind of ACTION_KINDS) {
      const source = everyVerbPlan().actions.find((a) => a.action === kind);
      if (source === undefined) throw new Error(`fixture lacks ${kind}`);
      const plan = buildPlan([act(kind, dashboard("One"), { before: source.before, after: source.after })]);
      expect([kind, errors(JSON.parse(renderJson(plan)))]).toEqual([kind, []]);
    }
  });
});
