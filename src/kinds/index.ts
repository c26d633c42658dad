/** The handler of each resource kind: adding a kind means adding a file and a line here. */
import type { ResourceKind } from "../plan/types.js";
import { batchExportHandler } from "./batch-export.js";
import { dashboardHandler } from "./dashboard.js";
import type { Env } from "./handler.js";

export { batchExportHandler } from "./batch-export.js";
export { dashboardHandler } from "./dashboard.js";
export type { Env, KindHandler, PulledObject } from "./handler.js";
export { missingSecretVariables, resolveSecrets } from "./secrets.js";

/** What apply needs of any handler: the body for an action. */
export interface BodyBuilder {
  requestBody: (typeof dashboardHandler)["requestBody"];
}

export const HANDLERS: Readonly<Record<ResourceKind, BodyBuilder & { kind: ResourceKind }>> = {
  dashboard: dashboardHandler,
  batch_export: batchExportHandler,
};

/** The request body of any plan action (undefined when the request has none). */
export function requestBodyFor(
  action: Parameters<BodyBuilder["requestBody"]>[0],
  env: Env,
): Record<string, unknown> | undefined {
  return HANDLERS[action.object.kind].requestBody(action, env);
}
