/**
 * Tags the service dropped: without the tagging feature it answers a write that set tags with none, and
 * says nothing. Apply reports it as a note instead of a silent success.
 */
export function ignoredTags(
  body: Record<string, unknown> | undefined,
  returned: readonly string[] | undefined,
): string[] {
  const sent = body?.tags;
  if (Array.isArray(sent) && sent.length > 0 && (returned ?? []).length === 0) {
    return ["the service ignored the tags (the organization lacks the tagging feature)"];
  }
  return [];
}
