/** What the operations commands need of a personal API key (service-api.md §4 "Runs", "Backfills", "Logs"). */
import type { ScopeNeed } from "../../../scopes.js";

export const OPERATION_SCOPES: Readonly<
  Record<"status" | "runs" | "logs" | "retry" | "backfill", readonly ScopeNeed[]>
> = {
  status: [
    { scope: "batch_export:read" },
    { scope: "project:read", when: "`--organization` on a service without the organization's export list" },
  ],
  runs: [{ scope: "batch_export:read" }],
  logs: [{ scope: "batch_export:read" }],
  retry: [{ scope: "batch_export:write" }],
  // The runs of the last 24 hours are read for the overlap warning; write grants read.
  backfill: [{ scope: "batch_export:write" }],
};
