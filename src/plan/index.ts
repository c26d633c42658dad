/** The planner's public surface, for the commands and the apply stage. */
export { type BuildOptions, buildPlan, type PlanError } from "./build.js";
export { detailRequests } from "./details.js";
export { ABSENT, fingerprintActions, fingerprintLive } from "./fingerprint.js";
export { checkSafety, deleteLimit } from "./safety.js";
export { compareActions, sortActions } from "./sort.js";
export { featureLookupNeeded, summarise, tagChangesPresent } from "./summary.js";
export { parseTarget } from "./targets.js";
