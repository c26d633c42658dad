/**
 * What promotion (SPEC §9) learns from flags: the static cohorts among those the flags' read resolved
 * names with (a static cohort's members are kept in each project, never copied), and the usage
 * dashboard the service makes for every flag it creates, named after the flag's key
 * (`_create_usage_dashboard` in PostHog's feature flag API), which adopting a project leaves out.
 */
import type { LiveFlags } from "./live.js";

export function staticCohorts(live: LiveFlags): Array<{ kind: string; name: string }> {
  return (live.foreign?.cohort ?? [])
    .filter((c) => c.is_static === true && c.deleted !== true)
    .map((c) => ({ kind: "cohort", name: c.name }));
}

export function generatedForFlag(item: Record<string, unknown>): Array<{ kind: string; name: string }> {
  return typeof item.key === "string"
    ? [{ kind: "dashboard", name: `Generated Dashboard: ${item.key} Usage` }]
    : [];
}
