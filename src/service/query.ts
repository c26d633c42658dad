/**
 * The pieces of a request's URL: paths under a project, path segments and query strings.
 *
 * List filters are plain records. Arrays repeat the parameter (`tags=a&tags=b`), `undefined` and
 * `null` drop it, everything else is sent as its string form.
 */
export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type Query = Readonly<Record<string, QueryValue>>;

export function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) params.append(key, String(item));
    } else {
      params.append(key, String(value));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** One URL path segment; `@` stays readable (`@current` addresses the key's own project/organization). */
export function segment(value: number | string): string {
  return encodeURIComponent(String(value)).replace(/%40/g, "@");
}

/** A project's id, or `@current` (the key's own project). */
export type ProjectId = number | string;

/** `/api/projects/{project}/{rest}`: where every project-scoped endpoint lives. */
export function projectPath(project: ProjectId, rest: string): string {
  return `/api/projects/${segment(project)}/${rest}`;
}
