/**
 * The activity log rows a write leaves (the service's `log_activity`): one per created, updated or
 * deleted object, so a test can count them as PostHog's tests count `ActivityLog` rows. A write that is
 * refused leaves none, and a write that changes nothing is not a write.
 */
import { randomUUID } from "node:crypto";
import type { Ctx } from "./router.js";

export function logActivity(
  ctx: Ctx,
  entry: {
    scope: string;
    itemId: number | string;
    activity: "created" | "updated" | "deleted";
    name: string | null;
  },
): void {
  ctx.store.data.activity_log.push({
    id: randomUUID(),
    team_id: ctx.project.id,
    scope: entry.scope,
    item_id: String(entry.itemId),
    activity: entry.activity,
    user: ctx.user.id > 0 ? ctx.user.id : null,
    created_at: ctx.now.toISOString(),
    name: entry.name,
  });
}
