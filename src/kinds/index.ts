/**
 * The registry of resource kinds, in the order plans and outputs list them. Adding a kind is a folder
 * under src/kinds/ and one line here.
 */
import { batchExportKind } from "./batch-export/index.js";
import { dashboardKind } from "./dashboard/index.js";
import type { Kind } from "./kind.js";

export const KINDS: readonly Kind[] = [dashboardKind, batchExportKind];

export type { Kind } from "./kind.js";
