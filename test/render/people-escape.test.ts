/**
 * What the service says about people and times is user text like names and values: in the terminal it
 * stays on its line with control characters visible, in markdown it cannot open HTML, markdown or code,
 * in annotations it cannot add a line of its own.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/plan/types.js";
import { planAnnotations } from "../../src/render/github.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { renderText } from "../../src/render/text.js";
import { ANA, act, at, batchExport, buildPlan, dashboard, VOCAB } from "./fixtures.js";

const hostile = fc.string({
  unit: fc.constantFrom(..."<>&|`*_[]\\~\n\r%:,;= a\u001b\u2028é+-"),
  maxLength: 40,
});

function plan(name: string, email: string, when: string): Plan {
  const object = dashboard("D", { id: 1, ...at("d.yaml", 2) });
  return {
    ...buildPlan([
      act("add_collaborator", object, { after: { user_uuid: ANA, level: 37 } }),
      act("update", batchExport("E", { id: "e", ...at("e.yaml", 2) }), {
        before: {},
        after: {},
        drift: true,
        modified: { at: when, by: ANA },
      }),
    ]),
    base: "main",
    people: { [ANA]: { name, email } },
  };
}

/** The parts of the markdown that hold service text: after the collaborator label, after "last modified". */
function serviceText(md: string): string[] {
  return md.split("\n").flatMap((l) => {
    const at = ["add collaborator**", "last modified"].map((m) => l.indexOf(m)).find((i) => i >= 0);
    return at === undefined ? [] : [l.slice(at).replace(/^add collaborator\*\*/, "")];
  });
}

describe("people and times from the service", () => {
  it("stay on their line in the text plan, with control characters made visible", () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, (name, email, when) => {
        const text = renderText(plan(name, email, when), { color: false, vocab: VOCAB });
        expect(text).not.toMatch(/[\u001b\r]/);
        const lines = text.split("\n");
        expect(lines.filter((l) => l.includes("+ add collaborator"))).toHaveLength(1);
        // Every line is one the renderer wrote: none starts with a line a name smuggled in.
        expect(lines.filter((l) => /^\s*[+~-] (add|update|create)/.test(l)).length).toBe(2);
      }),
      { numRuns: 200 },
    );
  });

  it("open nothing in the markdown", () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, (name, email, when) => {
        const md = renderMarkdown(plan(name, email, when), { vocab: VOCAB });
        for (const part of serviceText(md)) {
          const text = part.replace(/\(`can_edit`\)/g, "");
          expect(text).not.toMatch(/[<>|_[\]\\~\u001b]|&(?!(amp|lt|gt|#\d+);)/);
        }
        expect(md).not.toContain("\u001b");
      }),
      { numRuns: 200 },
    );
  });

  it("add no line to an annotation", () => {
    fc.assert(
      fc.property(hostile, hostile, hostile, (name, email, when) => {
        const out = planAnnotations(plan(name, email, when), VOCAB);
        for (const line of out.trimEnd().split("\n")) expect(line).toMatch(/^::(notice|warning) file=/);
        const messages = out
          .trimEnd()
          .split("\n")
          .map((l) => l.slice(l.indexOf("::", 2) + 2).split("%0A"));
        expect(messages[0]).toHaveLength(2);
      }),
      { numRuns: 200 },
    );
  });

  it("an email is shown as written, escaped, and never as a mail link: <ana@acme.com>", () => {
    const md = renderMarkdown(plan("Ana <b>Lima</b>", "ana_x@acme.com", "2026-11-20T10:00:00Z"), {
      vocab: VOCAB,
    });
    expect(md).toContain(
      "**+ add collaborator** Ana &lt;b&gt;Lima&lt;/b&gt; &lt;ana&#95;x@&#8203;acme.com&gt; (`can_edit`)",
    );
    expect(md).toContain("last modified 2026-11-20T10:00:00Z (20h ago) by Ana &lt;b&gt;Lima&lt;/b&gt;");
  });
});
