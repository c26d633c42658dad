/**
 * The emulator's control endpoints (docs/architecture.md), shared by the benchmarks and the fault
 * campaign: JSON in, JSON out, any non-2xx status is an Error naming the endpoint.
 */

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  status: number;
  ms: number;
  fault?: string;
}

export async function control(url: string, path: string, method = "GET", body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}/_emulator/${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} /_emulator/${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export async function requestLog(url: string): Promise<LoggedRequest[]> {
  return ((await control(url, "requests")) as { requests: LoggedRequest[] }).requests;
}

export async function clearLog(url: string): Promise<void> {
  await control(url, "requests", "DELETE");
}

/** The emulator's whole store; only the lists the benchmarks and campaigns look at are typed. */
export interface EmulatorState {
  dashboards: Array<
    Record<string, unknown> & { id: number; team_id: number; name: string; deleted?: boolean }
  >;
  batch_exports: Array<
    Record<string, unknown> & { id: string; team_id: number; name: string; deleted?: boolean }
  >;
  collaborators: Array<Record<string, unknown> & { dashboard_id: number; user: number }>;
  sharing: Array<Record<string, unknown> & { dashboard_id: number }>;
  [key: string]: unknown;
}

export async function getState(url: string): Promise<EmulatorState> {
  return (await control(url, "state")) as EmulatorState;
}

/**
 * Seeds the store: the current service rules, organizations, projects, users, keys and integrations
 * (batch exports of the newest service name them), with the given objects only.
 */
export async function seedObjects(
  url: string,
  base: EmulatorState,
  objects: Pick<EmulatorState, "dashboards" | "batch_exports" | "collaborators" | "sharing"> & {
    insights?: unknown[];
    feature_flags?: unknown[];
    cohorts?: unknown[];
    actions?: unknown[];
  },
): Promise<void> {
  await control(url, "seed", "POST", seedOf(base, objects));
}

/** A seed of `base`'s service rules, organizations, projects, users, keys and integrations, and `objects`. */
export function seedOf(
  base: EmulatorState,
  objects: Pick<EmulatorState, "dashboards" | "batch_exports" | "collaborators" | "sharing">,
): Record<string, unknown> {
  return {
    service: base.service,
    integrations: base.integrations,
    organizations: base.organizations,
    projects: base.projects,
    users: base.users,
    api_keys: base.api_keys,
    ...objects,
    runs: [],
    backfills: [],
    logs: [],
    events: [],
  };
}
