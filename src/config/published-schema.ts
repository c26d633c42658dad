/**
 * schemas/config.schema.json, the schema editors read: the tool's per-document schema (schema.ts),
 * with what a file serving environments may hold besides (SPEC §9). The tool checks such a file at its
 * top level only and its declarations once merged per environment, so a shared file's or an overlay's
 * entries are judged by what they make; an editor sees one file, so the schema accepts there what
 * merging and variables accept:
 * - a shared file (`environments: all` or a list): entries that overlays complete (no field required
 *   but the identity), and `${NAME}` wherever a number, a boolean or a constrained string is expected
 *   (a whole value takes the variable's type; in a string, the text is put in);
 * - an overlay (`overlay: NAME`): the same, `null` for any field (unmanaged there), and `exclude: true`
 *   on an entry (its identity beside it, nothing else) or on an entry of a keyed list;
 * - the declaration (`environments:` as a mapping) holds nothing else; neither serving file names
 *   `project:` or `variables:`, and an overlay never `environments:`.
 * A single-project file is checked exactly as the tool checks it. `npm run schemas` writes it.
 */
import type { ConfigKind, SchemaNode } from "./kinds.js";
import { composeSchema } from "./schema.js";

type Node = Record<string, unknown>;

/** A value that is exactly one reference; and a string holding one somewhere. */
const WHOLE_REFERENCE = "^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$";
const HOLDS_REFERENCE = "\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}";

type Variant = "shared" | "overlay";

/** The keywords that constrain a string beyond its type, which a `${NAME}` reference would fail. */
const STRING_CONSTRAINTS = ["pattern", "format", "maxLength"] as const;

export function publishedSchema(kinds: readonly ConfigKind[]): SchemaNode {
  const base = composeSchema(kinds) as Node & {
    properties: Record<string, Node>;
    $defs: Record<string, Node>;
  };
  const defs: Record<string, unknown> = { ...base.$defs };
  const roots = new Set<string>();
  for (const kind of kinds) {
    const ref = (kind.schema.item as Node).$ref;
    if (typeof ref === "string" && ref.startsWith("#/$defs/")) roots.add(ref.slice("#/$defs/".length));
  }
  for (const variant of ["shared", "overlay"] as const) {
    for (const [name, def] of Object.entries(base.$defs)) {
      const as = defName(name, variant);
      if (as in base.$defs) throw new Error(`schema definition "${as}" is taken`);
      defs[as] = relaxObjectRoot(relax(def, variant), variant, roots.has(name) && "kind");
    }
  }
  const properties: Record<string, unknown> = { ...base.properties };
  const items: Record<Variant | "single", Record<string, unknown>> = { single: {}, shared: {}, overlay: {} };
  for (const kind of kinds) {
    const { items: strict, ...list } = base.properties[kind.key] as Node;
    properties[kind.key] = list;
    const identity = kind.identityKey ?? "name";
    const listType = { type: list.type };
    items.single[kind.key] = { ...listType, items: strict };
    items.shared[kind.key] = { ...listType, items: entry(kind.schema.item as Node, "shared", identity) };
    items.overlay[kind.key] = {
      ...listType,
      items: {
        anyOf: [
          {
            type: "object",
            description: "Leaves the shared declaration out of this environment: its identity, nothing else.",
            required: [identity, "exclude"],
            additionalProperties: false,
            properties: {
              [identity]: { type: "string", minLength: 1, description: "The shared declaration's identity." },
              exclude: { const: true, description: "The shared declaration is not in this environment." },
            },
          },
          entry(kind.schema.item as Node, "overlay", identity),
        ],
      },
    };
  }
  const has = (key: string) => ({ required: [key] });
  const declaration = { required: ["environments"], properties: { environments: { type: "object" } } };
  const serving = { required: ["environments"], properties: { environments: { type: ["string", "array"] } } };
  return {
    ...base,
    description: `${base.description as string} A file serves one project (project:), serves environments (environments: all or a list; no ids), is an environment's overlay (overlay: NAME), or declares the environments (environments: a mapping, nothing else).`,
    properties: properties as Record<string, SchemaNode>,
    allOf: [
      {
        if: has("overlay"),
        then: {
          properties: items.overlay,
          not: { anyOf: [has("project"), has("environments"), has("variables")] },
        },
      },
      { if: declaration, then: { maxProperties: 1 } },
      {
        if: serving,
        then: { properties: items.shared, not: { anyOf: [has("project"), has("variables")] } },
      },
      {
        if: { anyOf: [has("overlay"), has("environments")] },
        else: { properties: items.single },
      },
    ],
    $defs: defs as Record<string, SchemaNode>,
  };
}

function defName(name: string, variant: Variant): string {
  return `${name}~${variant}`;
}

/** A list's entry in a serving file: the relaxed item, which names its identity. */
function entry(item: Node, variant: Variant, identity: string): Node {
  return { type: "object", ...relaxObjectRoot(relax(item, variant), variant, "kind"), required: [identity] };
}

/**
 * An entry in an overlay may say `exclude`: an entry of a kind's list only as `exclude: true` beside
 * its identity (the other form of its list's items), an entry of a keyed list beside anything.
 */
function relaxObjectRoot(node: Node, variant: Variant, root: "kind" | "keyed" | false): Node {
  if (root === false || variant !== "overlay" || node.properties === undefined) return node;
  const exclude =
    root === "kind"
      ? { const: false, description: "An excluding entry holds its identity and `exclude: true` only." }
      : {
          type: "boolean",
          description: "In an overlay: true leaves the shared entry out of this environment.",
        };
  return { ...node, properties: { ...(node.properties as Node), exclude } };
}

/**
 * The node as a serving file may hold it: nothing required (an `if`'s condition is left as it is, so
 * conditional rules still tell their cases apart), `oneOf` read as `anyOf` (partial entries may fit
 * several), references to the same variant's definitions, `${NAME}` where a scalar is constrained, and
 * in an overlay `null` for any field.
 */
function relax(node: Node, variant: Variant): Node {
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "required" || key === "minProperties" || key === "dependentRequired") continue;
    if (key === "$ref" && typeof value === "string" && value.startsWith("#/$defs/")) {
      out.$ref = `#/$defs/${defName(value.slice("#/$defs/".length), variant)}`;
    } else if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Node>).map(([k, v]) => [k, field(v, variant)]),
      );
    } else if (key === "items" && isNode(value)) {
      const item = relax(value, variant);
      const keyed = item.type === "object" && item.additionalProperties === false;
      out.items = relaxObjectRoot(item, variant, keyed && "keyed");
    } else if ((key === "then" || key === "else" || key === "additionalProperties") && isNode(value)) {
      out[key] = relax(value, variant);
    } else if (key === "oneOf" || key === "anyOf" || key === "allOf") {
      out[key === "oneOf" ? "anyOf" : key] = (value as Node[]).map((v) => relax(v, variant));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** A property's value: relaxed, and where a reference or (in an overlay) `null` would not fit, widened. */
function field(node: Node, variant: Variant): Node {
  const relaxed = relax(node, variant);
  const { description, ...rest } = relaxed;
  const also: Node[] = [];
  const reference = referenceFor(rest);
  if (reference !== undefined) also.push({ type: "string", pattern: reference });
  if (variant === "overlay" && !allowsNull(rest)) also.push({ type: "null" });
  if (also.length === 0) return relaxed;
  const said =
    description ??
    (reference !== undefined
      ? "Its value, or a ${NAME} reference to the environment's variable."
      : "Its value; null leaves it unmanaged in this environment.");
  return { description: said, anyOf: [rest, ...also] };
}

/** The reference form a node needs to be told it may hold one (undefined: it accepts it already). */
function referenceFor(node: Node): string | undefined {
  const types = node.type === undefined ? [] : ([] as unknown[]).concat(node.type);
  const scalar = types.some((t) => t === "number" || t === "integer" || t === "boolean");
  if ("enum" in node || "const" in node) {
    const values = ((node.enum as unknown[]) ?? [node.const]) as unknown[];
    return values.every((v) => typeof v === "string") ? HOLDS_REFERENCE : WHOLE_REFERENCE;
  }
  if (scalar) return types.includes("string") ? undefined : WHOLE_REFERENCE;
  if (types.includes("string") && STRING_CONSTRAINTS.some((k) => k in node)) return HOLDS_REFERENCE;
  return undefined;
}

/** Whether a node accepts `null` as it is (no type and no other constraint on the value: anything). */
function allowsNull(node: Node): boolean {
  if (node.type !== undefined) return ([] as unknown[]).concat(node.type).includes("null");
  return !["$ref", "enum", "const", "anyOf", "oneOf", "allOf", "not"].some((k) => k in node);
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
