/** The planner's public surface, for the read and apply stages, the kinds and the commands. */
export { type BuildOptions, buildPlan, type PlanError } from "./build.js";
export { declarationKey, declaredRef, makeAction, type PlanSink } from "./context.js";
export { ABSENT, fingerprintActions, fingerprintLive } from "./fingerprint.js";
export type { KindPlanContext, PlanKind, ProjectView } from "./kinds.js";
export { matchObjects } from "./match.js";
export { checkSafety, DELETE_FLOOR, deleteLimit } from "./safety.js";
export { displaced } from "./scope.js";
export { compareActions, kindOrder, sortActions } from "./sort.js";
export { featureLookupNeeded, summarise } from "./summary.js";
export { parseTarget } from "./targets.js";
export * from "./types.js";
