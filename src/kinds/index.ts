/**
 * The registry of resource kinds, in the order plans and outputs list them. Adding a kind is a folder
 * under src/kinds/ and one line here (see ./define/index.ts for how a kind is written).
 */
import { verbsOf } from "../render/kinds.js";
import { actionKind } from "./action/index.js";
import { batchExportKind } from "./batch-export/index.js";
import { cohortKind } from "./cohort/index.js";
import { dashboardKind } from "./dashboard/index.js";
import { featureFlagKind } from "./feature-flag/index.js";
import { insightKind } from "./insight/index.js";
import type { Kind } from "./kind.js";

export const KINDS: readonly Kind[] = [
  dashboardKind,
  insightKind,
  featureFlagKind,
  cohortKind,
  actionKind,
  batchExportKind,
];

/** The registry's action names (SPEC §3), in the order summaries count them (by step). */
export const ACTION_KINDS: readonly string[] = verbsOf(KINDS).map((v) => v.name);

/** The registry's actions that are always destructive (shown first and guarded). */
export const DESTRUCTIVE_ACTIONS: ReadonlySet<string> = new Set(
  verbsOf(KINDS)
    .filter((v) => v.destructive === true)
    .map((v) => v.name),
);

export type { Kind, Verb } from "./kind.js";
