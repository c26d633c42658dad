/**
 * The small harness PostHog's feature-flag API tests are ported onto. PostHog's tests set up rows with
 * the ORM (`FeatureFlag.objects.create(...)`, which skips the API's validation) and call the API as a
 * logged-in admin of `self.team`; here rows are written into the emulator's store (a seed, so they skip
 * validation the same way) and calls go over loopback with the default seed's admin key. `self.team`
 * is project 12345, another team of the organization is 12346, a second member of the organization is
 * bob (`BOB_KEY`). The default seed's own flags, cohorts and experiments are left out, as PostHog's
 * tests start from an empty team.
 */
import { beforeEach } from "vitest";
import { ACME_ID, BOB_KEY, ENVIRONMENT_KEYS } from "../../../src/default-seed.js";
import { TEST_NOW } from "../../support/clock.js";
import { type ApiResponse, type Json, type PartialState, useEmulator } from "../../support/harness.js";
import { FrozenClock } from "../harness.js";

export const TEAM = 12345;
export const OTHER_TEAM = 12346;
export const FLAGS = `/api/projects/${TEAM}/feature_flags`;
/** A project of another organization (Globex) and its admin's key (dave, user 4). */
export const FOREIGN_TEAM = 22222;
export const FOREIGN_KEY = ENVIRONMENT_KEYS.globex;
export { BOB_KEY };

/** One day in milliseconds, for `now() - timedelta(days=n)`. */
export const DAY = 86_400_000;

export interface PostHogFlags {
  /** PostHog's `freeze_time` (at TEST_NOW before each test). */
  clock: FrozenClock;
  /** `now() - timedelta(days=n)` (or plus, for negative n) as an ISO string on the frozen clock. */
  daysAgo(days: number): string;
  /** A row of any other list of the store (`early_access_features`, `access_controls`, ...). */
  add(list: string, row: Json): Promise<Json>;
  /** `User.objects.create_and_join(self.organization, ...)`: a member (or admin) of the organization with a key. */
  createUser(fields?: Json, level?: "member" | "admin"): Promise<{ id: number; key: string }>;
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
  /** `dashboard.delete()`: the row is gone (a hard delete, which the API never does). */
  removeDashboard(id: number): Promise<void>;
  /** `experiment.refresh_from_db()` and `experiment.x = ...; experiment.save()`. */
  experiment(id: number): Promise<Json>;
  saveExperiment(id: number, fields: Json): Promise<void>;
  /** `membership.delete()`: the user leaves the organization, and their access rules go with them. */
  removeFromOrganization(user: number): Promise<void>;
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
  /** `self.settings(NAME=value)`: one of the service's settings (`max_feature_flags_per_team`, ...). */
  serviceSetting(name: string, value: unknown): Promise<void>;
  /** A request with the admin's key (or `key`), and any extra headers (a form body's content type). */
  api(
    method: string,
    path: string,
    body?: unknown,
    key?: string,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  /**
   * A request in a browser session of the user (`client.force_login(user)` without a key:
   * `POST /_emulator/sessions`), with the session's cookies and CSRF header.
   */
  inSession(user: number, method: string, path: string, body?: unknown): Promise<ApiResponse>;
  /** A project of the store (`Team.objects.get(...)`): its settings and `api_token`. */
  project(id: number): Promise<Json>;
  /** `ActivityLog.objects.filter(team_id=self.team.id)`: the activity log rows of the team. */
  activity(): Promise<Json[]>;
  /** Every flag the store holds (`FeatureFlag.objects_including_soft_deleted`). */
  flags(): Promise<Json[]>;
  /** How many flags the store holds (`FeatureFlag.objects.count()`, soft-deleted ones included). */
  count(): Promise<number>;
}

export function usePostHogFlags(): PostHogFlags {
  const clock = new FrozenClock();
  const h = useEmulator({
    clock,
    rateLimit: "none",
    seed: { base: "default", feature_flags: [], cohorts: [], experiments: [] },
  });
  beforeEach(() => clock.set(TEST_NOW));
  let nextId = 1000;
  let nextUser = 100;
  const push = async (list: string, row: Json): Promise<Json> => {
    const id = nextId++;
    await h.reseed<PartialState>((s) => {
      s[list]?.push({ id, team_id: TEAM, ...row });
    });
    return ((await h.state())[list] as Json[]).find((r) => r.id === id);
  };
  const ph: PostHogFlags = {
    clock,
    daysAgo: (days) => new Date(clock.now() - days * DAY).toISOString(),
    add: (list, row) => push(list, row),
    async createUser(fields = {}, level = "member") {
      const id = nextUser++;
      const key = `phx_flags_user_${id}`;
      await h.reseed<PartialState>((s) => {
        s.users?.push({
          id,
          uuid: `0190f1d2-0000-7000-8000-${String(id).padStart(12, "0")}`,
          email: `user${id}@posthog.com`,
          organizations: [{ id: ACME_ID, level }],
          ...fields,
        });
        s.api_keys?.push({ key, user: id, scopes: ["*"] });
      });
      return { id, key };
    },
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
    async removeDashboard(id) {
      await h.reseed<PartialState>((s) => {
        s.dashboards = (s.dashboards as Json[]).filter((d) => d.id !== id);
      });
    },
    async experiment(id) {
      return ((await h.state()).experiments as Json[]).find((e) => e.id === id);
    },
    async saveExperiment(id, fields) {
      await h.reseed<PartialState>((s) => {
        Object.assign(
          (s.experiments as Json[]).find((e) => e.id === id),
          fields,
        );
      });
    },
    async removeFromOrganization(user) {
      await h.reseed<PartialState>((s) => {
        const row = (s.users as Json[]).find((u) => u.id === user);
        row.organizations = row.organizations.filter((m: Json) => m.id !== ACME_ID);
        s.access_controls = (s.access_controls as Json[]).filter((a) => a.organization_member !== user);
      });
    },
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
    async serviceSetting(name, value) {
      await h.reseed<Json>((s) => {
        s.service[name] = value;
      });
    },
    api: (method, path, body, key, headers) =>
      h.api(method, path, body, { ...(key === undefined ? {} : { key }), ...(headers ? { headers } : {}) }),
    async inSession(user, method, path, body) {
      const opened = await h.control("POST", "sessions", { user });
      const { sessionid, csrftoken } = opened.body;
      const headers = { Cookie: `sessionid=${sessionid}; csrftoken=${csrftoken}`, "X-CSRFToken": csrftoken };
      return h.api(method, path, body, { key: null, headers });
    },
    async project(id) {
      return ((await h.state()).projects as Json[]).find((p) => p.id === id);
    },
    async activity() {
      return ((await h.state()).activity_log as Json[]).filter((a) => a.team_id === TEAM);
    },
    async flags() {
      return (await h.state()).feature_flags as Json[];
    },
    async count() {
      return ((await h.state()).feature_flags as Json[]).length;
    },
  };
  return ph;
}
