import { describe, expect, it } from "vitest";
import { GITHUB_COMMENT_LIMIT, renderMarkdown } from "../../src/render/markdown.js";
import { act, at, bigPlan, buildPlan, dashboard, mixedPlan, VOCAB } from "./fixtures.js";

const HINT = "the full plan is in the job summary and the artifact `plan.txt`";

function sections(md: string): number {
  return md.split("\n").filter((l) => l.startsWith("<details><summary>")).length;
}

describe("renderMarkdown: layout", () => {
  it("starts with the hidden marker naming the projects", () => {
    expect(renderMarkdown(mixedPlan(), { vocab: VOCAB }).split("\n")[0]).toBe(
      "<!-- posthog-gitops plan: 12345,12346 -->",
    );
  });

  it("lists destructive actions under a warning before any object section", () => {
    const md = renderMarkdown(mixedPlan(), { vocab: VOCAB });
    const warning = md.indexOf("> [!WARNING]");
    expect(warning).toBeGreaterThan(md.indexOf("| Action | Count |"));
    expect(warning).toBeLessThan(md.indexOf("<details>"));
    const quoted = md.split("\n").filter((l) => l.startsWith("> - "));
    expect(quoted.map((l) => l.match(/^> - \*\*([a-z ]+)\*\*/)?.[1])).toEqual([
      "remove collaborator",
      "sharing off",
      "update",
      "archive",
      "pause",
      "soft delete",
      "delete",
    ]);
  });

  it("renders a plan of 3 changes whole, without a cut note", () => {
    const plan = buildPlan([
      act("create", dashboard("A", at("a.yaml", 2)), { after: { name: "A" } }),
      act("update", dashboard("B", { id: 2, ...at("b.yaml", 2) }), {
        before: { pinned: false },
        after: { pinned: true },
        changes: [{ path: "pinned", before: false, after: true }],
      }),
      act("soft_delete", dashboard("C", { id: 3 }), { before: { name: "C" } }),
    ]);
    const md = renderMarkdown(plan, { vocab: VOCAB, fullPlanHint: HINT });
    expect(sections(md)).toBe(3);
    expect(md).not.toContain("[!NOTE]");
    expect(md).toContain("- `pinned`: `false` → `true`");
  });

  it("puts a unified diff in a diff block", () => {
    expect(renderMarkdown(mixedPlan(), { vocab: VOCAB })).toContain(
      "```diff\n@@ -1,3 +1,3 @@\n Weekly KPIs for the leadership meeting.\n-Owner: growth team.\n",
    );
  });
});

describe("renderMarkdown: the comment cap", () => {
  const plan = bigPlan(2000);
  const md = renderMarkdown(plan, { vocab: VOCAB, fullPlanHint: HINT });

  it("keeps a 2,000-change plan under 65,536 characters", () => {
    expect(renderMarkdown(plan, { vocab: VOCAB, maxLength: 10_000_000 }).length).toBeGreaterThan(
      GITHUB_COMMENT_LIMIT,
    );
    expect(md.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    expect(md.startsWith("<!-- posthog-gitops plan: 12345 -->\n")).toBe(true);
    expect(md).toContain("**Plan: 1900 to update, 100 to soft-delete.**");
  });

  it("keeps every destructive action", () => {
    for (const a of plan.actions.filter((x) => x.destructive)) {
      expect(md).toContain(`> - **soft delete** dashboard <b>${a.object.name}</b> (id ${a.object.id})`);
    }
  });

  it("cuts whole sections and says how many and where the full plan is", () => {
    const shown = sections(md);
    expect(shown).toBeGreaterThan(50);
    expect(shown).toBeLessThan(2000);
    expect(md.split("<details>").length).toBe(md.split("</details>").length);
    expect(md).toContain(`${2000 - shown} sections were left out of 2000 (${2000 - shown} dashboards)`);
    expect(md).toContain("The full plan is in the job summary and the artifact `plan.txt`.");
    expect(md.trimEnd().endsWith("`plan.txt`.")).toBe(true);
  });

  it("honours a smaller maxLength, and shortens the destructive list only when it alone cannot fit", () => {
    const small = renderMarkdown(plan, { vocab: VOCAB, maxLength: 6000, fullPlanHint: HINT });
    expect(small.length).toBeLessThanOrEqual(6000);
    expect(small).toMatch(/> - …and \d+ more, listed in the full plan\./);
    expect(small).toContain("**100 destructive actions**");
    expect(small).toContain("2000 sections were left out of 2000");
  });

  it("skips one huge section but keeps the small ones after it", () => {
    const huge = "x".repeat(200).concat("\n").repeat(400);
    const big = act("update", dashboard("Huge", { id: 1, ...at("h.yaml", 2) }), {
      before: { description: "" },
      after: { description: huge },
      changes: [{ path: "description", before: "", after: huge, diff: `@@ -0,0 +1,400 @@\n+${huge}` }],
    });
    const small = act("create", dashboard("Small", at("s.yaml", 2)), { after: { name: "Small" } });
    const out = renderMarkdown(buildPlan([big, small]), { vocab: VOCAB, maxLength: 20_000 });
    expect(out.length).toBeLessThanOrEqual(20_000);
    expect(out).toContain("<b>Small</b>");
    expect(out).not.toContain("<b>Huge</b>");
    expect(out).toContain("1 section was left out of 2 (1 dashboard)");
  });
});

describe("renderMarkdown: escaping user text", () => {
  const hostile = "</details><script>alert(1)</script> | ``` `x` **bold** [link](javascript:alert(1)) <!--";
  const plan = buildPlan(
    [
      act("update", dashboard(hostile, { id: 5, ...at("evil`|</details>.yaml", 2) }), {
        before: { description: "a" },
        after: { description: hostile },
        changes: [
          { path: "description", before: "a", after: hostile },
          { path: hostile, before: 1, after: 2 },
        ],
        warnings: [hostile],
      }),
      act("soft_delete", dashboard(hostile, { id: 6 }), { before: {}, warnings: [hostile] }),
    ],
    [{ severity: "warning", message: hostile, object: dashboard(hostile) }],
  );
  const md = renderMarkdown(plan, { vocab: VOCAB });
  // What markdown parses as markup: the text without code spans (CommonMark: a backtick run closes
  // only on a run of the same length) and without fenced blocks.
  const outsideCode = md
    .replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/gm, "")
    .replace(/(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)/g, "");

  it("never lets a name open or close HTML", () => {
    expect(outsideCode).not.toContain("<script>");
    expect(outsideCode.match(/<details>/g)?.length).toBe(1); // both actions are on one object
    expect(outsideCode.match(/<\/details>/g)?.length).toBe(1);
    expect(outsideCode.match(/<!--/g)?.length).toBe(1); // only the marker
  });

  it("keeps every table row to its two cells", () => {
    const rows = md.split("\n").filter((l) => l.startsWith("|"));
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row.split("|").length).toBe(4);
  });

  it("keeps user text out of markdown syntax outside code", () => {
    expect(outsideCode).not.toContain("[link]");
    expect(outsideCode).not.toContain("**bold**");
    expect(outsideCode).not.toContain("```");
    expect(md).toContain("&lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt; &#124; &#96;&#96;&#96;");
  });

  it("holds values literally in code spans whose fences outgrow the backticks inside", () => {
    expect(md).toContain('- `description`: `"a"` → ````"</details><script>alert(1)</script> | ``` `x`');
  });
});
