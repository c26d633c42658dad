/** An ObjectContext over a YAML text, for unit tests of one item's declare (diagnostics collected). */
import { ObjectContext, type RunContext } from "../../../src/config/context.js";
import { Diagnostics, formatDiagnostic } from "../../../src/config/diagnostics.js";
import { parseYaml } from "../../../src/config/parse.js";

export function itemContext(text: string, base: string, owner: string) {
  const diags = new Diagnostics();
  const file = parseYaml("posthog/kpis.yaml", text, diags);
  if (file === undefined) throw new Error("the test's YAML does not parse");
  const run: RunContext = {
    env: {},
    mode: "validate",
    diags,
    missingSecrets: new Set(),
    missingSecretUses: new Map(),
  };
  const ctx = new ObjectContext(run, file, base, owner);
  const pointer = base.slice(1).split("/");
  let item: unknown = file.data;
  for (const segment of pointer) item = (item as Record<string, unknown>)[segment];
  return {
    ctx,
    item: item as Record<string, unknown>,
    messages: () => diags.sorted().map(formatDiagnostic),
  };
}
