/**
 * The fast YAML path: js-yaml (several times faster than the `yaml` library on large files) for the
 * common clean file. It answers only when it is sure to give exactly what parse-slow.ts would: the
 * same data, no diagnostics. It returns undefined, and the caller takes the slow path, on any js-yaml
 * error (syntax, duplicate keys, several documents, depth), any anchor, alias or explicit tag, any key
 * the slow path would refuse or spell differently, any refusal of the safety walk, an empty document,
 * and text whose offsets, warnings or values could differ (a BOM, a lone CR, tabs, directives, `?`
 * keys, block scalar indentation indicators, a `#` right after a quote or bracket, flow collections
 * over several lines).
 *
 * Positions: js-yaml's `listener` (not in its README, hence the exact version pin and the differential
 * tests) reports where each node opens; mappings and sequences keep that offset (the first `-`, `[`,
 * `{` or key) and those of their children (fast-place.ts). What that cannot answer asks a `yaml`
 * parse of the file, built once on first need.
 */
import { FAILSAFE_SCHEMA, load, type State, Type } from "js-yaml";
import { fastPlace, nodeStart, type Recorded } from "./fast-place.js";
import { LineIndex } from "./lines.js";
import { slowPlaces } from "./parse-slow.js";
import { FORBIDDEN_KEYS, MAX_DEPTH, MAX_NODES, type NodePlace, type ParsedFile } from "./parse-types.js";
import { PLAIN_STRING, resolvePlain } from "./yaml-core.js";

/** Longer implicit keys are an error for the `yaml` library. */
const MAX_KEY_LENGTH = 1024;
const PLAIN_TAG = "tag:posthog-gitops,2026:plain";

/**
 * Plain scalars resolve exactly as in the `yaml` library's YAML 1.2 core schema (js-yaml's own core
 * schema differs, e.g. on `0b101` and `-0x1F`); quoted and block scalars stay strings.
 */
const SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: [
    new Type(PLAIN_TAG, {
      kind: "scalar",
      resolve: (text: string) => resolvePlain(text) !== PLAIN_STRING,
      construct: (text: string) => resolvePlain(text),
    }),
  ],
});

/** Text shapes left to the slow path: they are rare in configs and where the two parsers could differ. */
const UNSURE_TEXT = /^\uFEFF|\r(?!\n)|\t|^%|(?:^|[\s[{,])\?(?:\s|$)|[|>][-+]?[1-9]|["'\]}]#/m;

interface ListenerState extends State {
  tag: string | null;
  anchor: string | null;
}

class Unsure extends Error {}

export function parseFast(path: string, text: string): ParsedFile | undefined {
  if (UNSURE_TEXT.test(text)) return undefined;
  const starts = new Map<object, Recorded>();
  const opened: number[] = [];
  // Per open node, where its children were opened (created on its first child).
  const children: (number[] | undefined)[] = [];
  let raw: unknown;
  try {
    raw = load(text, {
      schema: SCHEMA,
      onWarning: () => {
        throw new Unsure();
      },
      listener: (event, state) => {
        if (event === "open") {
          opened.push(state.position);
          children.push(undefined);
          return;
        }
        const start = opened.pop() ?? 0;
        const own = children.pop();
        const top = children.length - 1;
        if (top >= 0) {
          const siblings = children[top];
          if (siblings === undefined) children[top] = [start];
          else siblings.push(start);
        }
        const s = state as ListenerState;
        if (s.anchor !== null || (s.tag !== null && s.tag !== "?" && s.tag !== PLAIN_TAG)) throw new Unsure();
        if (s.kind === null && s.result !== null && s.result !== undefined) throw new Unsure(); // an alias
        const result: unknown = s.result;
        if (result === null || typeof result !== "object" || starts.has(result)) return;
        const at = nodeStart(text, start);
        const first = text.charCodeAt(at);
        if (first === 0x5b || first === 0x7b) {
          // Over several lines, indentation warnings differ; followed by `:`, it is a key the slow path refuses.
          if (text.lastIndexOf("\n", state.position - 1) >= at) throw new Unsure();
          let next = state.position;
          while (text.charCodeAt(next) === 0x20) next += 1;
          if (text.charCodeAt(next) === 0x3a) throw new Unsure();
          // A lone key in a flow mapping (`{[a], b}`): js-yaml turns it into text.
          let before = at - 1;
          while (text.charCodeAt(before) === 0x20) before -= 1;
          const previous = text.charCodeAt(before);
          const parent = opened[opened.length - 1];
          if ((previous === 0x7b || previous === 0x2c) && parent !== undefined) {
            if (text.charCodeAt(nodeStart(text, parent)) === 0x7b) throw new Unsure();
          }
        }
        starts.set(result, { start: at, children: own ?? [] });
      },
    });
  } catch {
    return undefined;
  }
  if (raw === null || raw === undefined) return undefined;
  const copied = new Map<object, Recorded>();
  let nodes = 0;
  const copy = (value: unknown, depth: number): unknown => {
    nodes += 1;
    if (depth > MAX_DEPTH || nodes > MAX_NODES) throw new Unsure();
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number") return value;
    if (Array.isArray(value)) {
      const list: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i++) list[i] = copy(value[i], depth + 1);
      remember(value, list);
      return list;
    }
    if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) throw new Unsure();
    const object: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // "null" may have been `~:` or `null:`, which the slow path refuses as a key.
      if (FORBIDDEN_KEYS.has(key) || key === "null" || key.length > MAX_KEY_LENGTH) throw new Unsure();
      object[key] = copy((value as Record<string, unknown>)[key], depth + 1);
    }
    remember(value, object);
    return object;
  };
  const remember = (from: object, to: object) => {
    const at = starts.get(from);
    if (at === undefined) throw new Unsure();
    copied.set(to, at);
  };
  let data: unknown;
  try {
    data = copy(raw, 0);
  } catch {
    return undefined;
  }
  const lines = new LineIndex(text);
  let slow: ((pointer: string) => NodePlace | undefined) | undefined;
  const slowPlace = (pointer: string) => {
    slow ??= slowPlaces(text);
    return slow(pointer);
  };
  return {
    path,
    data,
    position: (offset) => lines.position(offset),
    place: (pointer) => fastPlace(text, data, copied, pointer) ?? slowPlace(pointer),
  };
}
