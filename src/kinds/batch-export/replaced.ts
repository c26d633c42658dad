/**
 * A replacement (a destination type or model change, SPEC §3) creates the new export before deleting
 * the old one. When that delete fails, two live exports carry the declared name; the next plan
 * recognises them and plans only the delete. They are recognised when there are exactly two, one of
 * them has the declared destination type and model and is the newer, and the other differs in one of the two
 * (so the file could only have been applied to it by a replacement). Anything else stays the usual
 * error asking for an `id` pin.
 */
import type { Recognised } from "../../plan/match.js";
import type { BatchExport } from "./answers.js";
import type { DesiredBatchExport } from "./fields.js";
import { batchExportState, compareBatchExport } from "./plan.js";

const REPLACING = new Set(["destination.type", "model"]);

export function recogniseReplacement(
  desired: DesiredBatchExport,
  candidates: readonly BatchExport[],
): Recognised<BatchExport> | undefined {
  if (desired.deleted) return undefined;
  const differences = new Map(
    candidates.map((live) => [
      live,
      compareBatchExport(desired, batchExportState(live)).changes.filter((c) => REPLACING.has(c.path)),
    ]),
  );
  const fitting = [...differences].filter(([, refused]) => refused.length === 0).map(([live]) => live);
  const kept = fitting[0];
  if (kept === undefined || fitting.length !== 1) return undefined;
  const leftovers = [...differences.keys()].filter((live) => live !== kept);
  // A replacement leaves exactly one export behind; three or more of a name are not its doing.
  if (leftovers.length !== 1) return undefined;
  if (leftovers.some((old) => !(Date.parse(old.created_at) < Date.parse(kept.created_at)))) return undefined;
  const described = leftovers.map((old) => {
    const what = (differences.get(old) ?? []).map((c) => `${c.path} ${String(c.before)}`).join(", ");
    return `export ${old.id} (${what})`;
  });
  return {
    live: kept,
    leftovers,
    why: `${described.join(" and ")} is what the replacement by export ${kept.id} left behind when its delete failed`,
  };
}
