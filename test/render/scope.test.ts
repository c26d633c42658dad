/**
 * A `--changed-only` plan says what it read in every format (SPEC §3 "Change-scoped plans"): the
 * change's count of all declarations, that drift elsewhere was not checked, what the change removed,
 * or why everything was read; the JSON `scope` follows the plan schema, and service text is escaped.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { Plan, PlanScope } from "../../src/plan/types.js";
import { renderJson } from "../../src/render/json.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { appliedScopeSentence } from "../../src/render/scope.js";
import { renderText } from "../../src/render/text.js";
import { act, at, buildPlan, dashboard, emptyPlan, VOCAB } from "./fixtures.js";

const schema = JSON.parse(readFileSync(new URL("../../schemas/plan.schema.json", import.meta.url), "utf8"));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

const CHANGES: PlanScope = {
  read: "changes",
  base: "origin/main",
  declarations: 50_000,
  planned: 3,
  removed: [
    { kind: "dashboard", project: 12345, name: "Old *board* <b>", live: 42 },
    { kind: "batch_export", project: 12345, name: "gone" },
  ],
};
const FULL: PlanScope = {
  read: "full",
  base: "HEAD^1",
  declarations: 12,
  planned: 12,
  reason: "--prune reads every live object, to find those no file declares",
};

const withScope = (
  scope: PlanScope,
  plan: Plan = buildPlan([
    act("update", dashboard("Kept", at("p.yaml", 3)), {
      before: { pinned: false },
      after: { pinned: true },
      changes: [{ path: "pinned", before: false, after: true }],
    }),
  ]),
) => ({
  ...plan,
  scope,
});

describe("a change-scoped plan", () => {
  it("text: the counts, the unchecked drift and the removed declarations come first", () => {
    const text = renderText(withScope(CHANGES), { color: false, vocab: VOCAB });
    expect(text.split("\n").slice(0, 4)).toEqual([
      "This plan covers only the change since origin/main: 3 of 50000 declarations, those it adds, modifies or deletes, were read and planned.",
      "The other 49997 declarations were not read, so edits made to them in PostHog (drift) do not show here; a full plan, such as the nightly drift workflow's, shows them.",
      'Declared at origin/main and no longer: dashboard "Old *board* <b>" (live, id 42), batch export "gone" (not live). They are left as they are: only a full plan with --prune deletes what no file declares.',
      "",
    ]);
    // Even with nothing to change, the reader learns what was not looked at.
    const empty = renderText(withScope({ ...CHANGES, removed: [] }, emptyPlan()), {
      color: false,
      vocab: VOCAB,
    });
    expect(empty).toBe(
      "This plan covers only the change since origin/main: 3 of 50000 declarations, those it adds, modifies or deletes, were read and planned.\nThe other 49997 declarations were not read, so edits made to them in PostHog (drift) do not show here; a full plan, such as the nightly drift workflow's, shows them.\n\nNo changes. The live service matches the configuration.\n",
    );
  });

  it("markdown: one note under the heading, names escaped, the revision as code", () => {
    const markdown = renderMarkdown(withScope(CHANGES), { vocab: VOCAB });
    const note = markdown.slice(markdown.indexOf("> [!NOTE]"), markdown.indexOf("**Plan:"));
    expect(note).toContain(
      "> This plan covers only the change since `origin/main`: 3 of 50000 declarations, those it adds",
    );
    expect(note).toContain("dashboard <b>Old &#42;board&#42; &lt;b&gt;</b> (live, id 42)");
    expect(markdown.indexOf("> [!NOTE]")).toBeLessThan(markdown.indexOf("**Plan:"));
  });

  it("json: `scope` as the schema describes it; `full` needs its reason", () => {
    for (const scope of [CHANGES, FULL]) {
      const parsed = JSON.parse(renderJson(withScope(scope)));
      expect(parsed.scope).toEqual(scope);
      expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    }
    const { reason: _reason, ...noReason } = FULL;
    expect(validate(JSON.parse(renderJson(withScope(noReason))))).toBe(false);
    expect(validate(JSON.parse(renderJson(withScope({ ...CHANGES, read: "some" as "full" }))))).toBe(false);
  });
});

describe("a full read asked for with --changed-only", () => {
  it("says why in text and markdown", () => {
    const sentence =
      "This plan reads everything rather than only the change: --prune reads every live object, to find those no file declares. Every declaration was read and checked for drift.";
    expect(renderText(withScope(FULL), { color: false, vocab: VOCAB })).toContain(`${sentence}\n`);
    expect(renderMarkdown(withScope(FULL), { vocab: VOCAB })).toContain(`> ${sentence}`);
  });
});

describe("apply's closing sentence", () => {
  it("only after a change-scoped apply", () => {
    expect(appliedScopeSentence(CHANGES)).toBe(
      "Only the change since origin/main was applied. The other 49997 declarations were neither checked for drift nor reverted: the nightly drift plan reports drift, and a full apply reverts it.",
    );
    expect(appliedScopeSentence(FULL)).toBeUndefined();
    expect(appliedScopeSentence(undefined)).toBeUndefined();
  });
});
