/**
 * Where two environments disagree in ways that change what a shared declaration means (SPEC §9), pure:
 * a group type index that names different group types in the two projects, for an object that
 * aggregates by it; a static cohort, whose members are a list kept in each project and never copied;
 * an integration or a member the destination lacks. What a declaration needs is declared by its kind:
 * the objects it names are its references (`Declared.refs`), and `EnvironmentRules.needs` says where
 * in an item a group type index, an integration's `{kind, name}` or a member stands; what each project
 * has is read by the command (`EnvironmentFacts`).
 */
import { childPointer, splitPointer } from "../config/environments/document.js";
import type { ConfigKind, NeedRule } from "../config/kinds.js";
import type { EnvironmentConfig } from "../config/load-types.js";

type Data = Record<string, unknown>;

/** What one declaration needs of the project it is applied to. */
export type Need =
  | { what: "group_type"; index: number }
  /** An object of another kind (or the same) named by name: a cohort a flag targets. */
  | { what: "reference"; kind: string; name: string }
  | { what: "integration"; kind: string; name: string }
  | { what: "member"; email?: string; uuid?: string };

export interface NeedAt {
  need: Need;
  /** How outputs name the declaration: `feature flag "new-checkout"`. */
  owner: string;
  /** Dotted path inside it: `filters.aggregation_group_type_index`. */
  field: string;
}

/** What a project has, as far as it was read (a part not read is undefined and checks nothing). */
export interface EnvironmentFacts {
  /** Group type index → its `group_type`. */
  groupTypes?: ReadonlyMap<number, string>;
  /** The static objects (`objectKey`), whose members are a list kept in each project: static cohorts. */
  static: ReadonlySet<string>;
  /** `kind\0display name` of each integration. */
  integrations?: ReadonlySet<string>;
  /** Members' emails (lower case) and UUIDs (lower case). */
  members?: ReadonlySet<string>;
}

export type WarningCode = "group_type" | "static_cohort" | "integration" | "member";

export interface PreflightWarning {
  code: WarningCode;
  message: string;
}

export const integrationKey = (kind: string, name: string) => `${kind}\0${name}`;
export const objectKey = (kind: string, name: string) => `${kind}\0${name}`;

/**
 * What the shared declarations of an environment need: those written in one of its shared files (an
 * environment's own declarations move nowhere), tombstones left out. First the objects each names
 * (its references), then each kind's declared places, in the kinds' order.
 */
export function needsOf(
  environment: Pick<EnvironmentConfig, "document" | "shared" | "config">,
  kinds: readonly Pick<ConfigKind, "name" | "key" | "words" | "identityKey" | "environments">[],
): NeedAt[] {
  const doc = environment.document;
  const shared = new Set(environment.shared);
  const out: NeedAt[] = [];
  for (const kind of kinds) {
    for (const declared of environment.config.projects.flatMap((p) => p.objects[kind.name] ?? [])) {
      if (declared.deleted || !shared.has(declared.source.file)) continue;
      const owner = `${kind.words.one} ${JSON.stringify(declared.name)}`;
      for (const ref of declared.refs ?? []) {
        if (ref.name === undefined) continue;
        const field = splitPointer(ref.pointer).join(".");
        out.push({ need: { what: "reference", kind: ref.kind, name: ref.name }, owner, field });
      }
    }
  }
  for (const kind of kinds) {
    const rules = kind.environments?.needs ?? [];
    const items = doc.data[kind.key];
    if (rules.length === 0 || !Array.isArray(items)) continue;
    items.forEach((item, i) => {
      if (item === null || typeof item !== "object" || (item as Data).deleted === true) return;
      const origin = doc.origins.find(`/${kind.key}/${i}`);
      if (origin === undefined || !shared.has(origin.origin.file.path)) return;
      const owner = `${kind.words.one} ${JSON.stringify(String((item as Data)[kind.identityKey ?? "name"]))}`;
      for (const rule of rules) {
        for (const { pointer, value } of nodesAt(item, rule)) {
          const need = needFrom(rule, value);
          if (need !== undefined) out.push({ need, owner, field: splitPointer(pointer).join(".") });
        }
      }
    });
  }
  return out;
}

function needFrom(rule: NeedRule, value: unknown): Need | undefined {
  switch (rule.what) {
    case "group_type":
      return typeof value === "number" && Number.isInteger(value)
        ? { what: "group_type", index: value }
        : undefined;
    case "integration": {
      const v = value as Data | null;
      if (v === null || typeof v !== "object" || typeof v.kind !== "string" || typeof v.name !== "string")
        return undefined;
      return { what: "integration", kind: v.kind, name: v.name };
    }
    case "member":
      if (typeof value !== "string" || value === "") return undefined;
      return value.includes("@") ? { what: "member", email: value } : { what: "member", uuid: value };
  }
}

/** The values `rule` names in `item`, with their pointers (`*`: any key or item; `**`: any depth). */
export function nodesAt(
  item: unknown,
  rule: Pick<NeedRule, "path" | "where">,
): Array<{ pointer: string; value: unknown }> {
  const found: Array<{ pointer: string; value: unknown }> = [];
  let budget = 100_000;
  const walk = (value: unknown, segments: readonly string[], pointer: string, parent: unknown) => {
    if (budget-- <= 0) return;
    const [head, ...rest] = segments;
    if (head === undefined) {
      if (value === undefined || value === null) return;
      if (rule.where !== undefined) {
        if (parent === null || typeof parent !== "object") return;
        if (!Object.entries(rule.where).every(([k, v]) => (parent as Data)[k] === v)) return;
      }
      found.push({ pointer, value });
      return;
    }
    if (value === null || typeof value !== "object") return;
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value as Data);
    if (head === "**") {
      walk(value, rest, pointer, parent);
      for (const [key, child] of entries) walk(child, segments, childPointer(pointer, key), value);
      return;
    }
    for (const [key, child] of entries) {
      if (head === "*" || head === key) walk(child, rest, childPointer(pointer, key), value);
    }
  };
  walk(item, splitPointer(rule.path), "", undefined);
  return found;
}

/**
 * The warnings for applying to `to` what `needs` (the shared declarations as `to` gets them) ask, when
 * they come from `from`. `only` narrows the checks (a plan of several environments checks group types
 * and static cohorts: its own plan says what an environment lacks).
 */
export function preflightWarnings(
  needs: readonly NeedAt[],
  from: { name: string; facts: EnvironmentFacts },
  to: { name: string; facts: EnvironmentFacts },
  only?: ReadonlySet<WarningCode>,
): PreflightWarning[] {
  const out = new Map<string, PreflightWarning>();
  const add = (code: WarningCode, message: string) => {
    if (only === undefined || only.has(code)) out.set(message, { code, message });
  };
  for (const { need, owner, field } of needs) {
    switch (need.what) {
      case "group_type": {
        const a = from.facts.groupTypes;
        const b = to.facts.groupTypes;
        if (a === undefined || b === undefined) break;
        const here = a.get(need.index);
        const there = b.get(need.index);
        if (here === there) break;
        const say = (type: string | undefined, env: string) =>
          type === undefined ? `no group type in ${env}` : `"${type}" in ${env}`;
        add(
          "group_type",
          `${owner} aggregates by group type index ${need.index} (${field}), which is ${say(here, from.name)} but ${say(there, to.name)}: the same index counts other groups there (group types are made per project)`,
        );
        break;
      }
      case "reference": {
        const key = objectKey(need.kind, need.name);
        const where = [from, to].filter((e) => e.facts.static.has(key)).map((e) => e.name);
        if (where.length === 0) break;
        const word = need.kind.replaceAll("_", " ");
        add(
          "static_cohort",
          `${owner} targets ${word} "${need.name}", which is static in ${where.join(" and ")}: a static ${word}'s members are a list kept in each project, never copied from ${from.name} to ${to.name}`,
        );
        break;
      }
      case "integration": {
        const have = to.facts.integrations;
        if (have === undefined || have.has(integrationKey(need.kind, need.name))) break;
        add(
          "integration",
          `${owner} uses ${need.kind} integration "${need.name}", which ${to.name} does not have: integrations are made in each project's settings (an integration's display name may differ: set it per environment with a variable)`,
        );
        break;
      }
      case "member": {
        const have = to.facts.members;
        const who = need.email ?? need.uuid ?? "";
        if (have === undefined || have.has(who.toLowerCase())) break;
        add("member", `${owner} names ${who} (${field}), who is not a member of ${to.name}'s organization`);
        break;
      }
    }
  }
  return [...out.values()];
}
