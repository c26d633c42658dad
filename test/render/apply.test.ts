/**
 * Apply speaks the plan's language: each result line carries the same symbol and label as the action's
 * line in the text plan (one label table), and the goldens guard the bytes. Every golden plan JSON
 * follows the published schema, the new optional fields included.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { ActionResult } from "../../src/apply/apply.js";
import type { Plan } from "../../src/plan/types.js";
import { formatResult, formatSummary } from "../../src/render/apply.js";
import { renderText } from "../../src/render/text.js";
import { collaboratorPlan, driftPlan, mixedPlan, VOCAB } from "./fixtures.js";

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), "..", "golden", "render");

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === "1") {
    writeFileSync(file, actual);
    return;
  }
  expect(actual).toBe(readFileSync(file, "utf8"));
}

/** Results as an apply of `plan` could end: mostly done, one failure and what it skipped, one stop. */
function results(plan: Plan): ActionResult[] {
  return plan.actions.map((action, i) => {
    if (i === 1)
      return { action, outcome: "failed", error: "the service answered 400: Invalid input.", notes: [] };
    if (i === 2)
      return { action, outcome: "skipped", error: "skipped: other work on this object failed", notes: [] };
    if (i === plan.actions.length - 1 && plan.actions.length > 4) {
      return { action, outcome: "not_started", error: "not started: the run was stopped", notes: [] };
    }
    if (action.object.kind === "feature_flag" && action.action === "update" && !action.guard) {
      const changeRequest = "6c1f0a3e-2b7d-4e59-9a41-0d8c5b7e2f10";
      return {
        action,
        outcome: "pending",
        change_request: changeRequest,
        error: `pending approval: change request ${changeRequest} (the service answered 409: A change request has been created and is pending approval.)`,
        notes: [],
      };
    }
    const made = action.action === "create" ? { id: 900 + i } : {};
    return {
      action,
      outcome: "ok",
      ...made,
      notes: i === 0 ? ["tags are kept only with the tagging feature"] : [],
    };
  });
}

function applyOutput(plan: Plan): string {
  const all = results(plan);
  const lines = all.map((r) => formatResult(r, { vocab: VOCAB, people: plan.people }));
  return `${lines.join("\n")}\n\n${formatSummary({ ok: all.every((r) => r.outcome === "ok"), results: all, duplicates: [] })}\n`;
}

describe("apply's result lines", () => {
  it.each([
    ["collaborators", collaboratorPlan],
    ["mixed", mixedPlan],
    ["drift", driftPlan],
  ] as const)("golden: %s", (name, build) => golden(`${name}.apply.txt`, applyOutput(build())));

  it.each([
    ["collaborators", collaboratorPlan],
    ["mixed", mixedPlan],
  ] as const)("label each action exactly as the %s plan's text does", (_name, build) => {
    const plan = build();
    const text = renderText(plan, { color: false, vocab: VOCAB });
    for (const result of results(plan)) {
      const line = formatResult(result, { vocab: VOCAB, people: plan.people });
      const label = /^. (.+?) · /.exec(line)?.[1];
      expect(label, line).toBeDefined();
      expect(
        text.split("\n").map((l) => l.trim()),
        line,
      ).toContain(label);
    }
  });

  it("name people as the plan does, and never by UUID when the plan knows them", () => {
    const plan = collaboratorPlan();
    const out = applyOutput(plan);
    expect(out).toContain("+ add collaborator Ana Lima <ana@acme.com> (can_edit) · ");
    expect(out).not.toContain("0190f3a2-7c1d-7000-8000-00000000a0a0");
    expect(out).not.toMatch(/add_collaborator|enable_sharing|remove_collaborator/);
  });

  it("make control characters in service text visible", () => {
    const plan = collaboratorPlan();
    const hostile = {
      ...plan,
      people: {
        ...plan.people,
        "0190f3a2-7c1d-7000-8000-00000000a0a0": { name: "Ana\n✓ + create", email: "\u001b[31mx" },
      },
    };
    const out = applyOutput(hostile);
    expect(out).not.toContain("\u001b");
    expect(out).toContain("Ana\\n✓ + create <\\u001b[31mx>");
  });
});

describe("golden plan JSON", () => {
  const schema = JSON.parse(readFileSync(new URL("../../schemas/plan.schema.json", import.meta.url), "utf8"));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const validate = ajv.compile(schema);
  it.each(readdirSync(GOLDEN).filter((f) => f.endsWith(".json")))(
    "%s follows schemas/plan.schema.json",
    (file) => {
      const ok = validate(JSON.parse(readFileSync(join(GOLDEN, file), "utf8")));
      expect(validate.errors ?? [], file).toEqual([]);
      expect(ok).toBe(true);
    },
  );
});
