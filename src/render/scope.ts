/**
 * What a `--changed-only` plan says about its own reach (SPEC §3 "Change-scoped plans"), in every
 * format: that only the change was read and planned, how many declarations of how many, that drift on
 * the others was not checked, and what the change removed (left live as it is); or that everything
 * was read, and why. `name` shapes each object's name for the format (escaped for markdown).
 */
import type { Plan, PlanScope } from "../plan/types.js";
import { count, plural } from "../words.js";
import type { Vocabulary } from "./kinds.js";

/** How many to name in the removed list; the rest are counted. */
const REMOVED_SHOWN = 20;

export interface ScopeWords {
  /** An object's name as the format shows it. */
  name: (name: string) => string;
  /** The revision, as the format shows literal text. */
  revision: (text: string) => string;
  /** Text from the tool about files and options (the reason for a full read). */
  text: (text: string) => string;
}

/** The scope's sentences (none without `--changed-only`). */
export function scopeSentences(plan: Pick<Plan, "scope">, vocab: Vocabulary, words: ScopeWords): string[] {
  const scope = plan.scope;
  if (scope === undefined) return [];
  const base = words.revision(scope.base);
  if (scope.read === "full") {
    return [
      `This plan reads everything rather than only the change: ${words.text(scope.reason ?? "")}. Every declaration was read and checked for drift.`,
    ];
  }
  const others = scope.declarations - scope.planned;
  const lines = [
    `This plan covers only the change since ${base}: ${scope.planned} of ${count(scope.declarations, "declaration")}, those it adds, modifies or deletes, were read and planned.`,
    `The other ${count(others, "declaration")} ${plural(others, "was", "were")} not read, so edits made to ${plural(others, "it", "them")} in PostHog (drift) do not show here; a full plan, such as the nightly drift workflow's, shows them.`,
  ];
  if (scope.reason !== undefined)
    lines.push(`It also read more than the change: ${words.text(scope.reason)}.`);
  const removed = scope.removed ?? [];
  if (removed.length > 0) {
    const named = removed.slice(0, REMOVED_SHOWN).map((r) => {
      const where = r.live === undefined ? "not live" : `live, id ${words.text(String(r.live))}`;
      return `${vocab.words(r.kind).one} ${words.name(r.name)} (${where})`;
    });
    const more = removed.length > REMOVED_SHOWN ? ` and ${removed.length - REMOVED_SHOWN} more` : "";
    const one = removed.length === 1;
    lines.push(
      `Declared at ${base} and no longer: ${named.join(", ")}${more}. ${one ? "It is" : "They are"} left as ${one ? "it is" : "they are"}: only a full plan with --prune deletes what no file declares.`,
    );
  }
  return lines;
}

/** The sentence `apply` ends with after applying only a change: what it did not touch. */
export function appliedScopeSentence(scope: PlanScope | undefined): string | undefined {
  if (scope?.read !== "changes") return undefined;
  const others = scope.declarations - scope.planned;
  return `Only the change since ${scope.base} was applied. The other ${count(others, "declaration")} ${plural(others, "was", "were")} neither checked for drift nor reverted: the nightly drift plan reports drift, and a full apply reverts it.`;
}
