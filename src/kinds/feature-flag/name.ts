/** The kind's name in plans and outputs (its own module: every file of the kind may import it). */
export const FEATURE_FLAG = "feature_flag";
