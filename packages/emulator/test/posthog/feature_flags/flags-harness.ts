/**
 * The small harness PostHog's feature-flag API tests are ported onto. PostHog's tests set up rows with
 * the ORM (`FeatureFlag.objects.create(...)`, which skips the API's validation) and call the API as a
 * logged-in admin of `self.team`; here rows are written into the emulator's store (a seed, so they skip
 * validation the same way) and calls go over loopback with the default seed's admin key. `self.team`
 * is project 12345, another team of the organization is 12346, a second member of the organization is
 * bob (`BOB_KEY`). The default seed's own flags, cohorts and experiments are left out, as PostHog's
 * tests start from an empty team.
 */
import { ACME_ID, BOB_KEY } from "../../../src/default-seed.js";
import { type ApiResponse, type Json, type PartialState, useEmulator } from "../../support/harness.js";

export const TEAM = 12345;
export const OTHER_TEAM = 12346;
export const FLAGS = `/api/projects/${TEAM}/feature_flags`;
export { BOB_KEY };

export interface PostHogFlags {
  /** `FeatureFlag.objects.create(...)` for each row, in order; resolves to the stored rows. */
  createFlags(rows: Json[]): Promise<Json[]>;
  createFlag(row: Json): Promise<Json>;
  /** `flag.refresh_from_db()`: the stored row (undefined once hard-deleted). */
  row(id: number): Promise<Json>;
  /** `flag.x = ...; flag.save()`: changes a stored row without the API. */
  save(id: number, fields: Json): Promise<void>;
  createCohort(row: Json): Promise<Json>;
  createExperiment(row: Json): Promise<Json>;
  createDashboard(row: Json): Promise<Json>;
  /** `ApprovalPolicy.objects.create(organization=..., team=self.team, ...)`. */
  createPolicy(row: Json): Promise<Json>;
  /** The change requests the store holds. */
  changeRequests(): Promise<Json[]>;
  /** A personal API key of the admin with these scopes. */
  keyWithScopes(scopes: string[]): Promise<string>;
  /** Sets `self.team` settings, e.g. `require_evaluation_contexts`. */
  teamSettings(fields: Json): Promise<void>;
  /** Turns one of the service's per-team flags on (what PostHog's tests patch `feature_enabled` for). */
  serviceFlag(name: string, on: boolean): Promise<void>;
  api(method: string, path: string, body?: unknown, key?: string): Promise<ApiResponse>;
  /**
   * A request in a browser session of the user (`client.force_login(user)` without a key:
   * `POST /_emulator/sessions`), with the session's cookies and CSRF header.
   */
  inSession(user: number, method: string, path: string, body?: unknown): Promise<ApiResponse>;
  /** How many flags the store holds (`FeatureFlag.objects.count()`, soft-deleted ones included). */
  count(): Promise<number>;
}

export function usePostHogFlags(): PostHogFlags {
  const h = useEmulator({ seed: { base: "default", feature_flags: [], cohorts: [], experiments: [] } });
  let nextId = 1000;
  const push = async (list: string, row: Json): Promise<Json> => {
    const id = nextId++;
    await h.reseed<PartialState>((s) => {
      s[list]?.push({ id, team_id: TEAM, ...row });
    });
    return ((await h.state())[list] as Json[]).find((r) => r.id === id);
  };
  const ph: PostHogFlags = {
    async createFlags(rows) {
      const ids = rows.map(() => nextId++);
      await h.reseed<PartialState>((s) => {
        rows.forEach((row, i) => {
          s.feature_flags?.push({ id: ids[i], team_id: TEAM, created_by: 1, ...row });
        });
      });
      const stored = (await h.state()).feature_flags as Json[];
      return ids.map((id) => stored.find((f) => f.id === id));
    },
    async createFlag(row) {
      return (await ph.createFlags([row]))[0];
    },
    async row(id) {
      return ((await h.state()).feature_flags as Json[]).find((f) => f.id === id);
    },
    async save(id, fields) {
      await h.reseed<PartialState>((s) => {
        const row = (s.feature_flags as Json[]).find((f) => f.id === id);
        Object.assign(row, fields);
      });
    },
    createCohort: (row) => push("cohorts", { name: "cohort", ...row }),
    createExperiment: (row) => push("experiments", row),
    createDashboard: (row) => push("dashboards", { name: "dashboard", ...row }),
    createPolicy: (row) => push("approval_policies", { organization: ACME_ID, ...row }),
    async changeRequests() {
      return (await h.state()).change_requests as Json[];
    },
    async keyWithScopes(scopes) {
      const key = `phx_scoped_${scopes.join("_").replace(/[^a-z_]/g, "")}`;
      await h.reseed<PartialState>((s) => {
        s.api_keys?.push({ key, user: 1, scopes });
      });
      return key;
    },
    async teamSettings(fields) {
      await h.reseed<PartialState>((s) => {
        Object.assign(
          (s.projects as Json[]).find((p) => p.id === TEAM),
          fields,
        );
      });
    },
    async serviceFlag(name, on) {
      await h.reseed<Json>((s) => {
        s.service.feature_flags[name] = on;
      });
    },
    api: (method, path, body, key) => h.api(method, path, body, key === undefined ? {} : { key }),
    async inSession(user, method, path, body) {
      const opened = await h.control("POST", "sessions", { user });
      const { sessionid, csrftoken } = opened.body;
      const headers = { Cookie: `sessionid=${sessionid}; csrftoken=${csrftoken}`, "X-CSRFToken": csrftoken };
      return h.api(method, path, body, { key: null, headers });
    },
    async count() {
      return ((await h.state()).feature_flags as Json[]).length;
    },
  };
  return ph;
}
