import { describe, expect, it } from "vitest";
import { ACTION_KINDS } from "../../src/kinds/index.js";
import type { ActionKind } from "../../src/plan/types.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { colorEnabled, NO_CHANGES, renderText } from "../../src/render/text.js";
import { act, at, buildPlan, dashboard, emptyPlan, mixedPlan, VOCAB } from "./fixtures.js";

describe("colorEnabled", () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: "1" }, true, false],
    [{ NO_COLOR: "" }, true, true],
    [{ NO_COLOR: "1", FORCE_COLOR: "1" }, true, false],
    [{ FORCE_COLOR: "1" }, false, true],
    [{ FORCE_COLOR: "3" }, false, true],
    [{ FORCE_COLOR: "0" }, true, false],
    [{ TERM: "dumb" }, true, false],
  ])("env %j on a TTY=%s → %s", (env, tty, expected) => {
    expect(colorEnabled(env, tty)).toBe(expected);
  });
});

describe("renderText", () => {
  it("says there is nothing to do for an empty plan", () => {
    expect(renderText(emptyPlan(), { color: false, vocab: VOCAB })).toBe(`${NO_CHANGES}\n`);
  });

  it("heads an existing object that only gains a collaborator or tile with ~, never the create symbol", () => {
    const board = dashboard("Weekly KPIs", { id: 42, ...at("d.yaml", 3) });
    const added = buildPlan([
      act("add_collaborator", board, {
        after: { user_uuid: "0190f3a2-7c1d-7000-8000-000000000001", level: 37 },
      }),
    ]);
    const text = renderText(added, { color: false, vocab: VOCAB });
    expect(text).toContain('  ~ dashboard "Weekly KPIs" (id 42) · d.yaml:3\n      + add collaborator');
    expect(renderMarkdown(added, { vocab: VOCAB })).toContain(
      "<summary><code>~</code> dashboard <b>Weekly KPIs</b>",
    );
    // A created or deleted object keeps its symbol.
    const created = buildPlan([
      act("create", dashboard("New", at("d.yaml", 9)), { after: { name: "New" } }),
      act("enable_sharing", dashboard("New", at("d.yaml", 9)), {
        before: { enabled: false },
        after: { enabled: true },
      }),
    ]);
    expect(renderText(created, { color: false, vocab: VOCAB })).toContain('  + dashboard "New" · d.yaml:9');
    const gone = buildPlan([act("soft_delete", dashboard("Old", { id: 7 }), { destructive: true })]);
    expect(renderText(gone, { color: false, vocab: VOCAB })).toContain('  - dashboard "Old" (id 7)');
  });

  it("ends with the summary line", () => {
    const lines = renderText(mixedPlan(), { color: false, vocab: VOCAB }).trimEnd().split("\n");
    expect(lines.at(-1)).toBe(
      "Plan: 3 to create, 1 to restore, 1 to unarchive, 5 to update, 1 collaborator to remove, 1 collaborator to add, " +
        "1 to share, 1 to stop sharing, 1 to archive, 1 to pause, 1 to unpause, 1 to soft-delete, 1 to delete.",
    );
  });

  it("uses ANSI colour only when asked", () => {
    expect(renderText(mixedPlan(), { color: false, vocab: VOCAB })).not.toContain("\u001b[");
    expect(renderText(mixedPlan(), { color: true, vocab: VOCAB })).toContain(
      "\u001b[31m- soft delete\u001b[39m",
    );
  });

  const expectedLine: Record<ActionKind, string> = {
    create: "+ create",
    update: "~ update",
    soft_delete: "- soft delete",
    delete: "- delete",
    restore: "↺ restore",
    pause: "⏸ pause",
    unpause: "▶ unpause",
    add_collaborator: "+ add collaborator 0190-add (can_edit)",
    remove_collaborator: "- remove collaborator 0190-rm (can_edit)",
    enable_sharing: "+ sharing on",
    disable_sharing: "- sharing off",
    add_tile: '+ add tile insight "Signups"',
    remove_tile: '- remove tile text "## Notes"',
    update_tile: '~ update tile insight "Signups"',
    archive: "⊟ archive",
    unarchive: "⊞ unarchive",
  };
  const tile = { insight: "Signups", insight_id: 4 };
  it.each(ACTION_KINDS)("shows %s with its symbol under the object's name, id and source", (kind) => {
    const object = dashboard("Ops", { id: 8, ...at("ops.yaml", 5) });
    const sides = {
      before:
        kind === "remove_collaborator"
          ? { user_uuid: "0190-rm", level: 37 }
          : kind === "remove_tile"
            ? { text: "## Notes\nmore" }
            : kind === "update_tile"
              ? tile
              : {},
      after:
        kind === "add_collaborator"
          ? { user_uuid: "0190-add", level: 37 }
          : kind === "add_tile" || kind === "update_tile"
            ? tile
            : {},
    };
    const out = renderText(buildPlan([act(kind, object, sides)]), { color: false, vocab: VOCAB });
    expect(out).toContain(`Project 12345 · dashboards\n\n  `);
    expect(out).toContain(`dashboard "Ops" (id 8) · ops.yaml:5\n      ${expectedLine[kind]}\n`);
  });

  it("shows field changes as path: before → after and long text as its diff hunks", () => {
    const out = renderText(mixedPlan(), { color: false, vocab: VOCAB });
    expect(out).toContain('          tags: ["kpi"] → ["kpi","weekly"]\n');
    expect(out).toContain("          description:\n            @@ -1,3 +1,3 @@\n");
    expect(out).toContain("            -Owner: growth team.\n            +Owner: product analytics.\n");
    expect(out).not.toContain("Index: description");
    expect(out).not.toContain("+++ description");
  });

  it("shows warnings under their action and the plan's notes", () => {
    const out = renderText(mixedPlan(), { color: false, vocab: VOCAB });
    expect(out).toContain("      - delete\n          ! Its run history is deleted with it.\n");
    expect(out).toContain("Notes:\n  ! warning: The organization has no tagging feature");
    expect(out).toContain("  · note: 2 dashboards matched `ignore:` globs");
  });

  it("groups by project, then kind", () => {
    const out = renderText(mixedPlan(), { color: false, vocab: VOCAB });
    const headings = out.split("\n").filter((l) => l.startsWith("Project "));
    expect(headings).toEqual([
      "Project 12345 · dashboards",
      "Project 12345 · feature flags",
      "Project 12345 · batch exports",
      "Project 12346 · dashboards",
    ]);
  });

  it("makes control characters in user text visible, so a name cannot drive the terminal", () => {
    const name = "evil\u001b[2J\u001b]0;pwned\u0007";
    const plan = buildPlan([act("create", dashboard(name, at("e.yaml", 1)), { warnings: ["x\u001by"] })]);
    const out = renderText(plan, { color: false, vocab: VOCAB });
    expect(out).not.toContain("\u001b");
    expect(out).not.toContain("\u0007");
    expect(out).toContain('dashboard "evil\\u001b[2J\\u001b]0;pwned\\u0007"');
  });

  it("prints notes of a plan without actions, then says there are no changes", () => {
    const plan = buildPlan([], [{ severity: "note", message: "tags are ignored here" }], [1]);
    expect(renderText(plan, { color: false, vocab: VOCAB })).toBe(
      `Notes:\n  · note: tags are ignored here\n\n${NO_CHANGES}\n`,
    );
  });
});
