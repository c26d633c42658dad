/**
 * `POST .../insights/bulk_delete/` and `.../bulk_restore/` `{ids: [...]}`: soft-delete (hiding every tile)
 * or restore several insights, answering which were done and which were skipped and why. A restored
 * insight's tiles come back except on dashboards the caller may not edit.
 */
import { canAccess } from "../access.js";
import { collectInvalid, invalid, required } from "../errors.js";
import { asBody, parseInteger } from "../fields.js";
import type { Ctx, Router } from "../router.js";
import type { InsightRecord } from "../types.js";
import { privilegeLevel } from "./dashboard-access.js";

function parseIds(ctx: Ctx): number[] {
  const body = asBody(ctx.body);
  let ids: number[] = [];
  const steps = collectInvalid();
  steps.step(() => {
    if (!("ids" in body)) throw required("ids");
    const list = body.ids;
    if (!Array.isArray(list))
      throw invalid('Expected a list of items but got type "str".', "ids", "not_a_list");
    if (list.length === 0) throw invalid("This list may not be empty.", "ids", "empty");
    ids = list.map((v) => parseInteger(v, "ids") ?? 0);
  });
  steps.done();
  return ids;
}

const summary = (i: InsightRecord) => ({ id: i.id, short_id: i.short_id, name: i.name });

function bulk(ctx: Ctx, restore: boolean) {
  const done: unknown[] = [];
  const skipped: Array<{ id: number; reason: string }> = [];
  for (const id of parseIds(ctx)) {
    const insight = ctx.store.data.insights.find(
      (i) => i.id === id && i.team_id === ctx.project.id && i.deleted === restore,
    );
    if (!insight) {
      skipped.push({ id, reason: "Insight not found" });
      continue;
    }
    // An insight the caller may not edit (access control rules) is skipped, not refused; the
    // reason's wording is the object permission's [inferred].
    if (!canAccess(ctx, "insight", insight, "editor")) {
      skipped.push({ id, reason: "You do not have editor access to this resource." });
      continue;
    }
    insight.deleted = !restore;
    insight.updated_at = ctx.now.toISOString();
    for (const d of ctx.store.data.dashboards) {
      for (const t of d.tiles) {
        if (t.insight_id !== insight.id) continue;
        if (!restore) t.deleted = true;
        else if (!d.deleted && privilegeLevel(ctx, d) === 37) t.deleted = false;
      }
    }
    done.push(summary(insight));
  }
  return { status: 200, body: restore ? { restored: done, skipped } : { deleted: done, skipped } };
}

export function registerBulkInsightActions(router: Router, base: string): void {
  const write = "insight:write";
  const bucket = "events" as const;
  router.add({
    method: "POST",
    pattern: `${base}/bulk_delete`,
    scope: write,
    bucket,
    sharing: "view",
    handler: (ctx) => bulk(ctx, false),
  });
  router.add({
    method: "POST",
    pattern: `${base}/bulk_restore`,
    scope: write,
    bucket,
    sharing: "view",
    handler: (ctx) => bulk(ctx, true),
  });
}
