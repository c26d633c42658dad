/**
 * src/yaml-edit: path-addressed edits to a YAML file's text that keep every other byte (issue 30 item
 * 4, and the module issue 35's promote writes shared files with). Each case states the whole file
 * after the edit, so anything else that moved fails it; the property at the end holds every edit of
 * generated documents, in block and flow style, to the data it must leave and the text it must keep.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isMap, parse, parseDocument, stringify } from "yaml";
import { align, editYaml, type YamlEdit } from "../../src/yaml-edit/index.js";

const edit = (text: string, ...edits: YamlEdit[]) => editYaml(text, edits);
const changedLines = (a: string, b: string) => {
  const x = a.split("\n");
  const y = b.split("\n");
  return x.length === y.length ? x.filter((line, i) => line !== y[i]).length : Number.NaN;
};

const FLAGS = `# Flags of the checkout team.
project: 12345
feature_flags:
  - key: new-checkout        # the flag the apps ask for
    name: 'New checkout flow'
    filters:
      groups:
        - properties:
            - {key: email, type: person, operator: icontains, value: "@acme.com"}
          rollout_percentage: 100
        # The second wave, widened every Monday.
        - rollout_percentage: 20   # percent
      multivariate:
        variants: [{key: control, rollout_percentage: 50}, {key: test, rollout_percentage: 50}]
`;

describe("a changed value is written where it stands", () => {
  it("a rollout in a nested list changes one line, its comment and every other byte kept", () => {
    const groups = parse(FLAGS).feature_flags[0].filters.groups;
    groups[1].rollout_percentage = 35;
    const out = edit(FLAGS, { set: ["feature_flags", 0, "filters", "groups"], value: groups });
    expect(out.outcomes.map((o) => o.status)).toEqual(["changed"]);
    expect(out.text).toBe(
      FLAGS.replace("rollout_percentage: 20   # percent", "rollout_percentage: 35   # percent"),
    );
    expect(changedLines(FLAGS, out.text)).toBe(1);
  });

  it("a string keeps its quotes: single, double and plain each as written; one the style cannot hold is quoted", () => {
    const text = "a: 'one'\nb: \"two\"\nc: three # note\nd: four\n";
    const out = edit(
      text,
      { set: ["a"], value: "uno" },
      { set: ["b"], value: "dos" },
      { set: ["c"], value: "tres" },
      { set: ["d"], value: "cuatro: four" },
    );
    expect(out.text).toBe('a: \'uno\'\nb: "dos"\nc: tres # note\nd: "cuatro: four"\n');
  });

  it("a block literal stays a block literal at its indentation; a number stays a number", () => {
    const text = "item:\n    text: |\n        Line one\n        Line two\n    count: 3\n";
    const out = edit(
      text,
      { set: ["item", "text"], value: "Line one\nLine 2\n" },
      { set: ["item", "count"], value: 4 },
    );
    expect(out.text).toBe("item:\n    text: |\n        Line one\n        Line 2\n    count: 4\n");
  });

  it("a flow collection stays flow and on its line: one variant's share changes in place", () => {
    const variants = [
      { key: "control", rollout_percentage: 40 },
      { key: "test", rollout_percentage: 60 },
    ];
    const out = edit(FLAGS, {
      set: ["feature_flags", 0, "filters", "multivariate", "variants"],
      value: variants,
    });
    expect(out.text).toBe(
      FLAGS.replace(
        "variants: [{key: control, rollout_percentage: 50}, {key: test, rollout_percentage: 50}]",
        "variants: [{key: control, rollout_percentage: 40}, {key: test, rollout_percentage: 60}]",
      ),
    );
    // A flow list that grows is written again, flow, on its line.
    const tags = edit("tags: [a, b]   # sorted\n", { set: ["tags"], value: ["a", "b", "c"] });
    expect(tags.text).toBe("tags: [a, b, c]   # sorted\n");
  });

  it("keys keep their order: a changed key in place, a new one after the last, a removed one's line gone", () => {
    const text = "z: 1\n# about y\ny: 2\nx: 3 # x\n";
    const out = edit(text, { set: [], value: { z: 1, x: 30, w: 4 } });
    expect(out.text).toBe("z: 1\n# about y\nx: 30 # x\nw: 4\n");
  });
});

describe("lists: the longest run of equal items stays", () => {
  const BOARD = [
    "dashboards:",
    "  - name: Revenue",
    "    collaborators:",
    "      - email: ana@acme.com   # finance lead",
    "        level: can_edit",
    "      - email: bob@acme.com",
    "        level: can_view",
    "    tiles:",
    "      - insight: Weekly revenue",
    "        layout: {x: 0, y: 0, w: 6, h: 5}",
    "      - text: '## Notes'",
    "",
  ].join("\n");
  const board = () => parse(BOARD).dashboards[0];

  it("an added collaborator is one new item in the list's own form, after the one it follows", () => {
    const collaborators = [...board().collaborators];
    collaborators.splice(1, 0, { email: "carol@acme.com", level: "can_edit" });
    const out = edit(BOARD, { set: ["dashboards", 0, "collaborators"], value: collaborators });
    expect(out.text).toBe(
      BOARD.replace(
        "        level: can_edit\n",
        "        level: can_edit\n      - email: carol@acme.com\n        level: can_edit\n",
      ),
    );
  });

  it("a collaborator's level changes one line; a removed one loses its lines only", () => {
    const changed = board().collaborators.map((c: { level: string }, i: number) =>
      i === 1 ? { ...c, level: "can_edit" } : c,
    );
    const level = edit(BOARD, { set: ["dashboards", 0, "collaborators"], value: changed });
    expect(level.text).toBe(BOARD.replace("level: can_view", "level: can_edit"));
    const removed = edit(BOARD, {
      set: ["dashboards", 0, "collaborators"],
      value: [board().collaborators[1]],
    });
    expect(removed.text).toBe(
      BOARD.replace("      - email: ana@acme.com   # finance lead\n        level: can_edit\n", ""),
    );
  });

  it("a tile's layout changes in its flow map; a new tile goes where the dashboard shows it", () => {
    const tiles = board().tiles;
    tiles[0].layout.w = 12;
    tiles.splice(1, 0, { insight: "Churn", layout: { x: 0, y: 5, w: 12, h: 4 } });
    const out = edit(BOARD, { set: ["dashboards", 0, "tiles"], value: tiles });
    expect(out.text).toBe(
      BOARD.replace("{x: 0, y: 0, w: 6, h: 5}", "{x: 0, y: 0, w: 12, h: 5}").replace(
        "      - text: '## Notes'",
        "      - insight: Churn\n        layout: {x: 0, y: 5, w: 12, h: 4}\n      - text: '## Notes'",
      ),
    );
  });

  it("new items take their neighbours' flow style and quotes", () => {
    const text = 'people:\n  - {email: a@x.io, level: can_edit}\nwords:\n  - "one"\n';
    const out = edit(
      text,
      { set: ["people", 1], value: { email: "b@x.io", level: "can_view" } },
      { set: ["words"], value: ["one", "two"] },
    );
    expect(out.text).toBe(
      'people:\n  - {email: a@x.io, level: can_edit}\n  - {email: b@x.io, level: can_view}\nwords:\n  - "one"\n  - "two"\n',
    );
  });

  it("aligns by the longest common run: kept, paired, deleted and inserted", () => {
    expect(align(["a", "b", "c", "d"], ["a", "x", "c", "d", "e"])).toEqual([
      { kind: "keep", old: 0, new: 0 },
      { kind: "pair", old: 1, new: 1 },
      { kind: "keep", old: 2, new: 2 },
      { kind: "keep", old: 3, new: 3 },
      { kind: "insert", new: 4, after: 3 },
    ]);
    expect(align(["a", "b"], ["b"])).toEqual([
      { kind: "delete", old: 0 },
      { kind: "keep", old: 1, new: 0 },
    ]);
    expect(align(["b"], ["a", "b"])).toEqual([
      { kind: "insert", new: 0, after: -1 },
      { kind: "keep", old: 0, new: 1 },
    ]);
  });
});

describe("paths, creation, deletion and refusals", () => {
  it("set creates the keys a path lacks in the file's indentation, unless create is false", () => {
    const text = "root:\n    a: 1\n";
    expect(edit(text, { set: ["root", "b", "c"], value: [1, 2] }).text).toBe(
      "root:\n    a: 1\n    b:\n        c:\n            - 1\n            - 2\n",
    );
    const absent = edit(text, { set: ["root", "b"], value: 1, create: false });
    expect(absent.outcomes[0]?.status).toBe("absent");
    expect(absent.text).toBe(text);
    // A list's next index appends; any other index past its end is refused.
    expect(edit("l:\n  - a\n", { set: ["l", 1], value: "b" }).text).toBe("l:\n  - a\n  - b\n");
    expect(edit("l:\n  - a\n", { set: ["l", 5], value: "b" }).outcomes[0]?.status).toBe("refused");
  });

  it("delete removes a key's or an item's lines; a path the file lacks is absent", () => {
    const text = "a:\n  b: 1 # b\n  c:\n    - 1\n    - 2\nd: 4\n";
    expect(edit(text, { delete: ["a", "c"] }).text).toBe("a:\n  b: 1 # b\nd: 4\n");
    expect(edit(text, { delete: ["a", "c", 0] }).text).toBe("a:\n  b: 1 # b\n  c:\n    - 2\nd: 4\n");
    expect(edit(text, { delete: ["a", "zz"] }).outcomes[0]?.status).toBe("absent");
    // The last key of a map leaves an empty map, written as one.
    expect(parse(edit("a:\n  b: 1\n", { delete: ["a", "b"] }).text)).toEqual({ a: {} });
  });

  it("an unchanged value is `unchanged` and the text is the same string", () => {
    const out = edit(FLAGS, { set: ["feature_flags", 0, "name"], value: "New checkout flow" });
    expect(out.outcomes[0]?.status).toBe("unchanged");
    expect(out.text).toBe(FLAGS);
  });

  it("a protected value is never rewritten or removed: the edit is refused and the text kept", () => {
    const text = "description: Owned by ${TEAM}\ntags: [a, '${TAG}']\nother: x\n";
    const protect = (v: unknown) => typeof v === "string" && v.includes("${");
    const out = editYaml(
      text,
      [
        { set: ["description"], value: "Owned by growth" },
        { set: ["tags"], value: ["a"] },
        { set: ["tags"], value: ["b", "${TAG}"] },
        { set: ["other"], value: "y" },
      ],
      { protect },
    );
    expect(out.outcomes.map((o) => o.status)).toEqual(["refused", "refused", "changed", "changed"]);
    expect(out.outcomes[0]?.reason).toBe('it would rewrite "Owned by ${TEAM}", which is kept as written');
    expect(out.text).toBe("description: Owned by ${TEAM}\ntags: [b, '${TAG}']\nother: y\n");
  });

  it("an edit through an alias is refused; a node on its parent's dash line is written again whole", () => {
    const aliased = "base: &b {x: 1}\nuse: *b\n";
    expect(edit(aliased, { set: ["use", "x"], value: 2 }).outcomes[0]?.status).toBe("refused");
    // Changing the anchored value would change the alias too: the check refuses it.
    const anchored = edit(aliased, { set: ["base", "x"], value: 2 });
    expect(anchored.outcomes[0]?.status).toBe("refused");
    expect(anchored.text).toBe(aliased);
    const compact = "l:\n  - a: 1\n    b: 2\n";
    const out = edit(compact, { delete: ["l", 0, "a"] });
    expect(out.outcomes[0]?.status).toBe("changed");
    expect(parse(out.text)).toEqual({ l: [{ b: 2 }] });
  });

  it("keeps CRLF line breaks, and refuses every edit of a file that is not valid YAML", () => {
    const crlf = "a: 1\r\nb:\r\n  - x\r\n";
    expect(edit(crlf, { set: ["b"], value: ["x", "y"] }, { set: ["c"], value: 3 }).text).toBe(
      "a: 1\r\nb:\r\n  - x\r\n  - y\r\nc: 3\r\n",
    );
    const broken = edit("a: [1\n", { set: ["a"], value: 2 });
    expect(broken.outcomes[0]).toMatchObject({ status: "refused", reason: "the file is not valid YAML" });
  });

  it("writes control characters as escapes, never raw", () => {
    const out = edit("a: x\n", { set: ["a"], value: "bell\u0007 and csi\u009b" });
    expect(out.text).toBe('a: "bell\\u0007 and csi\\u009b"\n');
    expect(parse(out.text).a).toBe("bell\u0007 and csi\u009b");
  });
});

// ── the property ─────────────────────────────────────────────────────────────────────────────────

const key = fc.constantFrom("a", "b", "name", "level", "x y", "on", "1", "k:v", "#c");
const scalar = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    "",
    "true",
    "12",
    "a: b",
    "- x",
    "#",
    "multi\nline",
    "  lead",
    "quote's",
    'dq"',
    "${X}",
    "plain",
  ),
  fc.string({ maxLength: 8 }),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(key, tie("node"), { maxKeys: 4, noNullPrototype: true }),
  ),
})).node;

/** Every path into the data, the root's own excepted. */
function paths(data: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(data)) return data.flatMap((item, i) => [[...prefix, i], ...paths(item, [...prefix, i])]);
  if (data !== null && typeof data === "object") {
    return Object.entries(data).flatMap(([k, item]) => [[...prefix, k], ...paths(item, [...prefix, k])]);
  }
  return [];
}

function setIn(root: unknown, path: readonly (string | number)[], v: unknown): unknown {
  if (path.length === 0) return v;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((item, i) => (i === head ? setIn(item, rest, v) : item));
  const obj = root as Record<string, unknown>;
  return { ...obj, [String(head)]: setIn(obj[String(head)], rest, v) };
}

function deleteIn(root: unknown, path: readonly (string | number)[]): unknown {
  const [head, ...rest] = path;
  if (rest.length > 0) {
    if (Array.isArray(root)) return root.map((item, i) => (i === head ? deleteIn(item, rest) : item));
    const obj = root as Record<string, unknown>;
    return { ...obj, [String(head)]: deleteIn(obj[String(head)], rest) };
  }
  if (Array.isArray(root)) return root.filter((_, i) => i !== head);
  const { [String(head)]: _gone, ...others } = root as Record<string, unknown>;
  return others;
}

/** The text of each top-level entry of a block map, by key. */
function entries(text: string): Map<string, string> {
  const doc = parseDocument(text);
  const map = doc.contents;
  if (!isMap(map) || map.flow) return new Map();
  return new Map(
    map.items.map((pair) => {
      const k = String((pair.key as { value: unknown }).value);
      const start = (pair.key as { range: number[] }).range[0] ?? 0;
      const end = (pair.value as { range?: number[] } | null)?.range?.[1] ?? start;
      return [k, text.slice(start, end).trimEnd()];
    }),
  );
}

describe("every edit of a generated document", () => {
  it("leaves exactly the edited data, and the text of the entries no edit touches byte for byte", () => {
    const operation = fc.record({ delete: fc.boolean(), value, pick: fc.nat() });
    fc.assert(
      fc.property(
        fc.dictionary(key, value, { minKeys: 2, maxKeys: 5, noNullPrototype: true }),
        fc.constantFrom("block", "flow", "any"),
        fc.constantFrom(2, 4),
        fc.array(operation, { minLength: 1, maxLength: 3 }),
        (data, style, indent, operations) => {
          const text = stringify(data, {
            collectionStyle: style as "block" | "flow" | "any",
            indent,
            lineWidth: 0,
          });
          let expected: unknown = parse(text);
          const edits: YamlEdit[] = [];
          for (const op of operations) {
            const all = paths(expected);
            if (all.length === 0) break;
            const path = all[op.pick % all.length] as (string | number)[];
            if (op.delete) {
              edits.push({ delete: path });
              expected = deleteIn(expected, path);
            } else {
              edits.push({ set: path, value: op.value });
              expected = setIn(expected, path, op.value);
            }
          }
          const out = editYaml(text, edits);
          for (const outcome of out.outcomes) expect(["changed", "unchanged"]).toContain(outcome.status);
          expect(parse(out.text) ?? {}).toEqual(expected);
          const touched = new Set(edits.map((e) => String(("set" in e ? e.set : e.delete)[0])));
          const after = entries(out.text);
          for (const [k, written] of entries(text)) {
            if (!touched.has(k) && after.has(k)) expect(after.get(k)).toBe(written);
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
  });
});
