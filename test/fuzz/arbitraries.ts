/**
 * fast-check generators of hostile configuration files: near-valid documents with random keys and
 * values, prototype keys, anchors, aliases and merge keys, alias bombs, deep nesting, odd scalars,
 * mutated examples and raw bytes. Each yields the bytes of one file.
 */
import fc from "fast-check";
import { oddScalar } from "./scalars.js";

const KNOWN_TOP = ["ignore", "dashboards"];
const KNOWN_DASHBOARD = [
  "name",
  "description",
  "pinned",
  "tags",
  "restriction_level",
  "collaborators",
  "sharing",
  "deleted",
  "id",
];
const KNOWN_EXPORT = [
  "name",
  "model",
  "interval",
  "paused",
  "destination",
  "start_at",
  "end_at",
  "hogql_query",
  "deleted",
  "id",
];
const HOSTILE_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "<<",
  "toString",
  "hasOwnProperty",
  "__defineGetter__",
  "valueOf",
];

/** Inside `[...]` / `{...}`, a plain scalar holding flow indicators must be quoted to stay valid. */
const inFlow = (scalar: string) =>
  /^[[{"']/.test(scalar) || !/[{}[\],]/.test(scalar) ? scalar : JSON.stringify(scalar);

const key = (known: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map((s) => JSON.stringify(s)) },
  );

/** A tree of YAML lines: scalars, flow lists and nested maps with the given keys. */
function value(depth: number): fc.Arbitrary<string> {
  if (depth <= 0) return oddScalar;
  return fc.oneof(
    { weight: 4, arbitrary: oddScalar },
    {
      weight: 1,
      arbitrary: fc.array(oddScalar, { maxLength: 4 }).map((xs) => `[${xs.map(inFlow).join(", ")}]`),
    },
    {
      weight: 1,
      arbitrary: fc
        .uniqueArray(fc.tuple(key(HOSTILE_KEYS.concat(KNOWN_DASHBOARD)), oddScalar), {
          maxLength: 3,
          selector: ([k]) => k,
        })
        .map((kv) => `{${kv.map(([k, v]) => `${k}: ${inFlow(v)}`).join(", ")}}`),
    },
  );
}

function item(known: string[]): fc.Arbitrary<string> {
  return fc
    .uniqueArray(fc.tuple(key(known), value(2), fc.boolean()), {
      minLength: 1,
      maxLength: 7,
      selector: ([k]) => k,
    })
    .map((pairs) =>
      pairs
        .map(
          ([k, v, anchored], i) =>
            `${i === 0 ? "  - " : "    "}${k}: ${anchored ? "&x " : ""}${v.replace(/\n/g, "\n      ")}`,
        )
        .join("\n"),
    );
}

/** A document shaped like a config file, with random keys, values, anchors and aliases. */
export const nearValid: fc.Arbitrary<string> = fc
  .record({
    project: fc.oneof(fc.constant("12345"), oddScalar),
    top: fc.uniqueArray(fc.tuple(key(KNOWN_TOP), value(2)), {
      maxLength: 2,
      selector: ([k]) => k,
    }),
    dashboards: fc.array(item(KNOWN_DASHBOARD), { maxLength: 5 }),
    exports: fc.array(item(KNOWN_EXPORT), { maxLength: 3 }),
    alias: fc.constantFrom("", "", "  - <<: *x\n    name: merged", "  - *x", "  - name: *x"),
  })
  .map(({ project, top, dashboards, exports, alias }) =>
    [
      `project: ${project}`,
      ...top.map(([k, v]) => `${k}: ${v.replace(/\n/g, "\n  ")}`),
      "dashboards:",
      ...dashboards,
      alias,
      "batch_exports:",
      ...exports,
    ].join("\n"),
  );

/** Billion-laughs style: each level lists the previous one `width` times. */
export const aliasBomb: fc.Arbitrary<string> = fc
  .record({
    levels: fc.integer({ min: 2, max: 12 }),
    width: fc.integer({ min: 2, max: 10 }),
    place: fc.boolean(),
  })
  .map(({ levels, width, place }) => {
    const lines = ["a0: &a0 [lol, lol]"];
    for (let i = 1; i <= levels; i++) {
      lines.push(`a${i}: &a${i} [${Array.from({ length: width }, () => `*a${i - 1}`).join(", ")}]`);
    }
    lines.push(place ? `dashboards:\n  - name: bomb\n    tags: *a${levels}` : `project: *a${levels}`);
    return lines.join("\n");
  });

/** Flow or block nesting far deeper than any config needs. */
export const deepNesting: fc.Arbitrary<string> = fc
  .record({
    depth: fc.integer({ min: 10, max: 5000 }),
    style: fc.constantFrom("flow-seq", "flow-map", "block"),
  })
  .map(({ depth, style }) => {
    if (style === "flow-seq") return `dashboards: ${"[".repeat(depth)}${"]".repeat(depth)}`;
    if (style === "flow-map") return `dashboards: ${"{a: ".repeat(depth)}x${"}".repeat(depth)}`;
    const capped = Math.min(depth, 400);
    return `dashboards:\n${Array.from({ length: capped }, (_, i) => `${"  ".repeat(i + 1)}- `).join("\n")}x`;
  });

/** A valid example with random characters inserted, deleted or replaced. */
export function mutated(base: string): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(fc.nat(base.length), fc.nat(3), fc.string({ maxLength: 3 })), {
      minLength: 1,
      maxLength: 8,
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

/** Any file: mostly text documents, some raw bytes (invalid UTF-8, NULs, BOMs). */
export function hostileFile(example: string): fc.Arbitrary<Uint8Array> {
  const text = fc.oneof(
    { weight: 5, arbitrary: nearValid },
    { weight: 2, arbitrary: aliasBomb },
    { weight: 2, arbitrary: deepNesting },
    { weight: 3, arbitrary: mutated(example) },
  );
  return fc.oneof(
    { weight: 9, arbitrary: text.map((t) => new TextEncoder().encode(t)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 50 }).map((b) => new Uint8Array([0xef, 0xbb, 0xbf, ...b])),
    },
  );
}
