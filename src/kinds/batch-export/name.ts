/** The kind's stable name in plans and outputs; the operations read its declarations by it. */
export const BATCH_EXPORT = "batch_export";

/** How messages name a batch export, the kind's and the operations commands'. */
export const EXPORT_WORDS = { one: "batch export", many: "batch exports" } as const;
