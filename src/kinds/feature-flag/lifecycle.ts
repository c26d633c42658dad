/**
 * A flag's own verbs: `archive` and `unarchive`, carried out by the service's lifecycle endpoints
 * (`POST …/{id}/archive/`, `…/unarchive/`: no body, idempotent). The service archives only disabled
 * flags, so `archive` runs after the update that turns a flag off; `unarchive` runs before the update
 * that turns it on again. Archiving a flag evaluated in the last 30 days is guarded (the plan says so),
 * and runs after the flags that depended on it when planned (`required_by`).
 */
import type { Verb } from "../kind.js";
import { featureFlagsApi, type LifecycleAction } from "./service.js";

function lifecycle(action: LifecycleAction): Verb["send"] {
  return async (client, planned, id) => {
    await featureFlagsApi(client).act(planned.object.project, Number(id), action);
    return { id, notes: [] };
  };
}

export const ARCHIVE: Verb = {
  name: "archive",
  symbol: "⊟",
  word: "archive",
  phrase: (n) => `${n} to archive`,
  step: 5,
  destructive: "depends",
  sides: { before: "required", after: "required" },
  refreshes: () => [["archived"]],
  send: lifecycle("archive"),
};

export const UNARCHIVE: Verb = {
  name: "unarchive",
  symbol: "⊞",
  word: "unarchive",
  phrase: (n) => `${n} to unarchive`,
  step: 0.5,
  destructive: false,
  sides: { before: "required", after: "required" },
  refreshes: () => [["archived"]],
  send: lifecycle("unarchive"),
};
