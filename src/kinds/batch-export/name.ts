/** The kind's stable name in plans and outputs; the operations read its declarations by it. */
export const BATCH_EXPORT = "batch_export";
