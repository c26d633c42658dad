/**
 * What promotion (SPEC §9) learns from flags: the usage dashboard the service makes for every flag it
 * creates, named after the flag's key (`_create_usage_dashboard` in PostHog's feature flag API), which
 * adopting a project leaves out. (The static cohorts a flag names are the cohort kind's to say.)
 */

export function generatedForFlag(item: Record<string, unknown>): Array<{ kind: string; name: string }> {
  return typeof item.key === "string"
    ? [{ kind: "dashboard", name: `Generated Dashboard: ${item.key} Usage` }]
    : [];
}
