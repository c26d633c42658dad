import type { KindPlanContext } from "../../plan/index.js";
import type { FieldChange, ObjectRef } from "../../plan/types.js";

const TAGS_IGNORED = "the organization lacks the tagging feature: the service ignores tags";

type PlanSide = Pick<KindPlanContext, "features" | "sink">;

/** A create declaring tags where the organization lacks the tagging feature: a warning says so. */
export function warnIgnoredTags(tags: readonly string[] | undefined, ref: ObjectRef, ctx: PlanSide): void {
  if (tags && tags.length > 0 && ctx.features?.tagging === false) {
    ctx.sink.notes.push({ severity: "warning", message: TAGS_IGNORED, object: ref });
  }
}

/**
 * An update's changes less a tags change the service would ignore (the organization lacks the tagging
 * feature), with a note saying so: planned, it would never go away.
 */
export function withoutIgnoredTags(changes: FieldChange[], ref: ObjectRef, ctx: PlanSide): FieldChange[] {
  if (ctx.features?.tagging !== false || !changes.some((c) => c.path === "tags")) return changes;
  ctx.sink.notes.push({ severity: "note", message: TAGS_IGNORED, object: ref });
  return changes.filter((c) => c.path !== "tags");
}

/**
 * Tags the service dropped: without the tagging feature it answers a write that set tags with none, and
 * says nothing. Apply reports it as a note instead of a silent success.
 */
export function ignoredTags(
  body: Record<string, unknown> | undefined,
  returned: readonly string[] | undefined,
): string[] {
  const sent = body?.tags;
  if (Array.isArray(sent) && sent.length > 0 && (returned ?? []).length === 0) {
    return ["the service ignored the tags (the organization lacks the tagging feature)"];
  }
  return [];
}
