/** YAML documents for the parse-path tests: benchmark-shaped files and random clean trees in mixed styles. */
import fc from "fast-check";

/** Every JSON pointer in the data (the root included), mappings and sequences first. */
export function pointers(data: unknown, at = ""): string[] {
  if (Array.isArray(data)) return [at, ...data.flatMap((item, i) => pointers(item, `${at}/${i}`))];
  if (data !== null && typeof data === "object") {
    const keys = Object.keys(data);
    return [
      at,
      ...keys.flatMap((k) =>
        pointers(
          (data as Record<string, unknown>)[k],
          `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`,
        ),
      ),
    ];
  }
  return [at];
}

/** A file like the benchmark's: many dashboards and exports, block and flow styles mixed. */
export function benchLike(items: number): string {
  const lines = ["project: 12345", "dashboards:"];
  for (let i = 0; i < items; i++) {
    lines.push(
      `  - name: Dashboard ${i}`,
      `    pinned: ${i % 2 === 0}`,
      `    tags: [Growth, kpi, team-${i}]`,
    );
    if (i % 2 === 0) {
      lines.push(
        "    collaborators:",
        "      - user_uuid: 0190f1d2-7b4e-7c3a-9d1f-000000000002",
        "    sharing: {enabled: false}",
      );
    }
  }
  lines.push("batch_exports:", "  -   name: spaced", "      model: events", "  -", "    name: on-next-line");
  lines.push("    destination:   # comment", "      # between", "      type: S3", "      config: {a: 1}");
  return `${lines.join("\n")}\n`;
}

/** Scalars both parsers must read alike: numbers in every spelling, quoting, escapes, folding. */
const scalar = fc.constantFrom(
  "word",
  "two words  apart",
  "a#b",
  "a:b",
  "http://x.example/p?q=1",
  "-1.5e3",
  "+.5",
  "007",
  "0o7",
  "0x0",
  "1e400",
  "-.inf",
  "true",
  "False",
  "~",
  "null",
  "''",
  '""',
  "'it''s # not a comment'",
  '"tab\\t, \\u00e9, \\x41, \\\\, \\/, \\"q\\""',
  '"multi\n  line"',
  "'multi\n\n  line'",
  "plain\n  folded\n\n  lines",
  "|\n  literal\n   indented\n",
  "|-\n  strip\n",
  ">\n  folded\n  text\n\n  para\n",
  ">+\n  keep\n\n",
  "|2\n    two\n",
  "|\n  a\n      \n  b\n",
  ">\n  a\n \n  b\n   \n",
  "|+\n  kept  \n\n",
  "trailing   ",
  '"dq  \n   \n  folded "',
  "'sq  \n \n  folded '",
  "${AWS_ACCESS_KEY_ID}",
  "- not a list",
  "2026-01-01 00:00:00",
);

type N =
  | { kind: "scalar"; v: string }
  | { kind: "seq"; items: N[] }
  | { kind: "map"; entries: [string, N][] };

/** A random tree written in random block and flow styles, with comments and odd spacing. */
export const cleanDoc: fc.Arbitrary<string> = fc
  .letrec((tie) => ({
    node: fc.oneof(
      { weight: 3, arbitrary: scalar.map((v) => ({ kind: "scalar" as const, v })) },
      {
        weight: 1,
        arbitrary: fc.array(tie("node"), { maxLength: 4 }).map((items) => ({ kind: "seq" as const, items })),
      },
      {
        weight: 1,
        arbitrary: fc
          .uniqueArray(fc.tuple(fc.constantFrom("a", "b c", "'q'", '"d"', "name", "1", "e_f"), tie("node")), {
            maxLength: 4,
            selector: ([k]) => k.replace(/['"]/g, ""),
          })
          .map((entries) => ({ kind: "map" as const, entries })),
      },
    ),
  }))
  .node.chain((node) =>
    fc.infiniteStream(fc.nat(9)).map((choices) => {
      const root = node as N;
      const pick = () => choices.next().value as number;
      const flow = (n: N): string =>
        n.kind === "scalar"
          ? /\n|^[|>-]/.test(n.v) || /[[\]{},]/.test(n.v)
            ? JSON.stringify(n.v)
            : n.v
          : n.kind === "seq"
            ? `[${n.items.map(flow).join(", ")}]`
            : `{${n.entries.map(([k, v]) => `${k}: ${flow(v)}`).join(", ")}}`;
      const block = (n: N, indent: string): string => {
        if (n.kind === "scalar") return ` ${n.v.replace(/\n/g, `\n${indent}  `)}`;
        if (pick() < 3 || (n.kind === "seq" ? n.items.length === 0 : n.entries.length === 0))
          return ` ${flow(n)}`;
        const comment = pick() === 0 ? "  # note" : "";
        if (n.kind === "seq") {
          return `${comment}\n${n.items
            .map((item) => {
              const gap = pick() < 2 ? "   " : " ";
              const inner = block(item, `${indent}  `);
              return `${indent}-${inner.startsWith("\n") ? inner : `${gap}${inner.trimStart()}`}`;
            })
            .join("\n")}`;
        }
        return `${comment}\n${n.entries.map(([k, v]) => `${indent}${k}:${block(v, `${indent}  `)}`).join("\n")}`;
      };
      return root.kind === "map" && root.entries.length > 0
        ? `${block(root, "").trimStart()}\n`
        : `v:${block(root, "  ")}\n`;
    }),
  );

/** Pieces of YAML syntax: what a mutation inserts where an indentation, comment or indicator matters. */
const SYNTAX = [
  " ",
  "  ",
  "\n",
  "\n  ",
  "\r\n",
  "-",
  "- ",
  ":",
  ": ",
  "#",
  " #",
  " # c",
  "[",
  "]",
  "{",
  "}",
  ",",
  ", ",
  "'",
  '"',
  "---\n",
  "--- ",
  "...\n",
  "~",
  "x",
  "|",
  ">-",
  "? ",
  "&a ",
  "*a",
  "!!str ",
  "\\",
];

/** `base` with a few pieces of YAML syntax inserted, characters deleted, or lines re-indented. */
export function yamlMutated(base: string): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(fc.nat(base.length), fc.nat(2), fc.constantFrom(...SYNTAX)), {
      minLength: 1,
      maxLength: 4,
    })
    .map((edits) => {
      let text = base;
      for (const [at, drop, insert] of edits) {
        const i = at % (text.length + 1);
        text = text.slice(0, i) + insert + text.slice(i + drop);
      }
      return text;
    });
}
