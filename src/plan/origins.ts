/**
 * Where an environment's values came from, on its plan (SPEC §9): each action on a declaration gets
 * the values its environment's overlay or variables gave (`Action.origins`), from what the merge
 * recorded, so every output can say "from overlays/production.yaml:9" beside the change.
 */
import { isDeepStrictEqual } from "node:util";
import type { Mark } from "../config/environments/types.js";
import type { SourceRef } from "../config/types.js";
import type { FieldChange, Plan, ValueOrigin } from "./types.js";

/** A merged declaration: where it is declared (its `source`), and what changed it, relative to it. */
export interface MarkedDeclaration {
  kind: string;
  source: SourceRef;
  marks: readonly Mark[];
}

const HOW: Partial<Record<Mark["how"], ValueOrigin["how"]>> = {
  set: "overlay",
  added: "overlay",
  replaced: "replaced",
  variable: "variable",
  secret: "secret",
};

export function withOrigins(plan: Plan, declarations: readonly MarkedDeclaration[]): Plan {
  const key = (kind: string, s: SourceRef) => `${kind}\0${s.file}\0${s.line}\0${s.column}`;
  const byDeclaration = new Map(declarations.map((d) => [key(d.kind, d.source), d.marks]));
  const actions = plan.actions.map((action) => {
    const source = action.object.source;
    const marks = source === undefined ? undefined : byDeclaration.get(key(action.object.kind, source));
    const origins: Record<string, ValueOrigin[]> = {};
    for (const mark of marks ?? []) {
      const how = HOW[mark.how];
      // The whole declaration added by an overlay: its source says so already.
      if (how === undefined || mark.pointer === "") continue;
      const path = mark.pointer
        .slice(1)
        .split("/")
        .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
        .join(".");
      const { file, line, column } = mark.source;
      const origin: ValueOrigin = {
        file,
        line,
        column,
        how,
        ...(mark.detail !== undefined && (how === "variable" || how === "secret")
          ? { name: mark.detail }
          : {}),
      };
      origins[path] = [...(origins[path] ?? []), origin];
    }
    return Object.keys(origins).length === 0 ? action : { ...action, origins };
  });
  return { ...plan, actions };
}

/**
 * The origins that concern a field change at `path`: at it, above it, or under it where the change
 * changes that part (given the change, an origin under an unchanged part, such as a variable's group
 * beside the group that changed, is not cited).
 */
export function originsOf(
  origins: Record<string, ValueOrigin[]> | undefined,
  path: string,
  change?: Pick<FieldChange, "before" | "after">,
): ValueOrigin[] {
  if (origins === undefined) return [];
  const out: ValueOrigin[] = [];
  for (const [at, list] of Object.entries(origins)) {
    if (at === path || path.startsWith(`${at}.`)) out.push(...list);
    else if (at.startsWith(`${path}.`) && changes(change, at.slice(path.length + 1))) out.push(...list);
  }
  return out;
}

/** Whether the change's two sides differ at the dotted path below its field (unknown: yes). */
function changes(change: Pick<FieldChange, "before" | "after"> | undefined, rest: string): boolean {
  if (change === undefined || !("before" in change) || !("after" in change)) return true;
  const at = (value: unknown) =>
    rest.split(".").reduce<unknown>((node, key) => {
      if (Array.isArray(node)) return /^\d+$/.test(key) ? node[Number(key)] : undefined;
      return node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
    }, value);
  return !isDeepStrictEqual(at(change.before), at(change.after));
}

/** `from overlays/production.yaml:9`, `from ${ROLLOUT} (environments.yaml:11)`; "" for none. */
export function originWords(origins: readonly ValueOrigin[]): string {
  const words = [
    ...new Set(
      origins.map((o) => {
        const at = `${o.file}:${o.line}`;
        if (o.how === "variable") return `\${${o.name ?? "?"}} (${at})`;
        if (o.how === "secret") return `$${o.name ?? "?"}'s variable (${at})`;
        if (o.how === "replaced") return `${at}, which replaces the shared list`;
        return at;
      }),
    ),
  ];
  return words.length === 0 ? "" : `from ${words.join(", ")}`;
}
