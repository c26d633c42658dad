/**
 * The registry's list keys, for the CLI's `--kind` choices: a module without imports, so `--help`
 * loads no kind (test/cli/startup.e2e.test.ts). test/kinds/registry.test.ts keeps it equal to
 * `KINDS.map((k) => k.key)`, in the registry's order.
 */
export const KIND_KEYS: readonly string[] = [
  "dashboards",
  "insights",
  "feature_flags",
  "cohorts",
  "actions",
  "batch_exports",
];
