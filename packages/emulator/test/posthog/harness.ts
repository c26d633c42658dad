/**
 * The shared set-up of the ports of PostHog's own API tests (this folder; see the emulator README,
 * "Fidelity"). Every file ports one PostHog test file, each test citing `path::test_name` and keeping
 * the original assertions; only the set-up is adapted, and that is what this module does:
 *
 * - `usePostHog()` starts one emulator for the file (the suite's `useEmulator`) and, before each test,
 *   seeds a world shaped like PostHog's `APIBaseTest` / batch-export `conftest.py`: one organization
 *   ("Test Org", no paid features unless asked: PostHog's tests run unlicensed), one team, one user who
 *   is a plain member (`create_and_join`'s default level), and no dashboards, exports or runs.
 * - `World` stands in for the Django ORM of PostHog's tests: it creates organizations, teams, users,
 *   integrations and raw records (an export with a legacy config, a running backfill) by editing the
 *   emulator's state through its control surface, and `client(user)` is `client.force_login(user)`: a
 *   personal API key of that user with every scope.
 * - `assertStatus` and the `*Response` helpers are PostHog's `ErrorResponsesMixin` shapes.
 *
 * Cases the emulator cannot model are `it.skip` with the reason in their title, never deleted.
 */
import type { Clock } from "posthog-gitops-shared/clock";
import { expect, it } from "vitest";
import type { MembershipRecord, StoreData } from "../../src/types.js";
import { TEST_NOW } from "../support/clock.js";
import {
  type ApiResponse,
  type EmulatorHarness,
  type HarnessOptions,
  useEmulator,
} from "../support/harness.js";

export type { ApiResponse } from "../support/harness.js";

/** The seeded organization of every test ("Test Org" in PostHog's fixtures). */
export const ORG = "0190f1d2-0000-7000-8000-00000000000a";
/** The seeded team (project) of every test. */
export const TEAM = 1001;

type Level = MembershipRecord["level"];

/** A user of the world and the key that acts as them. */
export interface Actor {
  id: number;
  uuid: string;
  email: string;
  key: string;
}

/** `client.force_login(user)`: requests signed with that user's key (every scope). */
export interface Client {
  get(
    path: string,
    query?: Record<string, string | string[] | number | boolean | null>,
  ): Promise<ApiResponse>;
  post(path: string, body?: unknown): Promise<ApiResponse>;
  patch(path: string, body?: unknown): Promise<ApiResponse>;
  put(path: string, body?: unknown): Promise<ApiResponse>;
  delete(path: string): Promise<ApiResponse>;
  /** Any method with a raw body and headers (form-encoded PATCH, ...). */
  raw(method: string, path: string, body: string, headers: Record<string, string>): Promise<ApiResponse>;
}

export interface Features {
  tagging?: boolean;
  access_control?: boolean;
  advanced_permissions?: boolean;
}

export interface WorldOptions {
  /** The organization's paid features (default none, like PostHog's unlicensed `APIBaseTest`). */
  features?: Features;
  /** The test user's level in the organization (default `member`). */
  level?: Level;
  /** The service switch of the seed (e.g. feature flags on). */
  service?: Record<string, unknown>;
}

type Loose = Record<string, unknown>;
type State = StoreData & Loose;

function queryString(query: Record<string, string | string[] | number | boolean | null> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

const uuidFor = (n: number) => `0190f1d2-0000-7000-8000-${String(n).padStart(12, "0")}`;

export class World {
  org = ORG;
  team = TEAM;
  user!: Actor;
  private next = 1;

  constructor(private readonly h: EmulatorHarness) {}

  /** The emulator's clock now, in epoch milliseconds (`timezone.now()`). */
  now(): number {
    return this.h.clock.now();
  }

  /** Waits `ms` of the shared clock (for "updated later than" assertions). */
  sleep(ms: number): Promise<void> {
    return this.h.clock.sleep(ms);
  }

  /** Seeds the world described in the module comment. */
  async setUp(options: WorldOptions = {}): Promise<void> {
    this.next = 1;
    const id = this.next++;
    this.user = { id, uuid: uuidFor(id), email: "user1@posthog.com", key: this.h.key };
    await this.h.seed({
      service: options.service ?? {},
      organizations: [
        {
          id: ORG,
          name: "Test Org",
          features: { tagging: false, access_control: false, ...options.features },
        },
      ],
      projects: [{ id: TEAM, name: "Test team", organization: ORG }],
      users: [
        {
          id,
          uuid: this.user.uuid,
          email: this.user.email,
          first_name: "",
          organizations: [{ id: ORG, level: options.level ?? "member" }],
        },
      ],
      api_keys: [{ key: this.h.key, user: id, scopes: ["*"] }],
    });
  }

  client(actor: Actor = this.user): Client {
    const call = (method: string, path: string, body?: unknown) =>
      this.h.api(method, path, body, { key: actor.key });
    return {
      get: (path, query) => call("GET", `${path}${queryString(query)}`),
      post: (path, body) => call("POST", path, body),
      patch: (path, body) => call("PATCH", path, body),
      put: (path, body) => call("PUT", path, body),
      delete: (path) => call("DELETE", path),
      raw: (method, path, body, headers) => this.h.api(method, path, body, { key: actor.key, headers }),
    };
  }

  /** Edits the emulator's state in one round trip (the ORM of PostHog's tests). */
  async edit(mutate: (state: State) => void): Promise<void> {
    await this.h.reseed<State>(mutate);
  }

  async state(): Promise<State> {
    return (await this.h.state()) as State;
  }

  async createOrganization(name: string, features: Features = {}): Promise<string> {
    const id = uuidFor(900 + this.next++);
    await this.edit((s) => {
      s.organizations.push({
        id,
        name,
        features: { tagging: false, access_control: false, advanced_permissions: false, ...features },
      });
    });
    return id;
  }

  /** `create_team(organization)`: a new team (project) of the organization. */
  async createTeam(org: string = this.org, name = "Test team"): Promise<number> {
    const state = await this.state();
    const id = Math.max(TEAM, ...state.projects.map((p) => p.id)) + 1;
    await this.edit((s) => {
      s.projects.push({ id, name, organization: org });
    });
    return id;
  }

  /** `User.objects.create_and_join(organization, email, ...)`, with a key to act as them. */
  async createUser(email: string, org: string | null = this.org, level: Level = "member"): Promise<Actor> {
    const id = this.next++ + 100;
    const actor = { id, uuid: uuidFor(id), email, key: `phx_posthog_test_user_${id}` };
    await this.edit((s) => {
      s.users.push({
        id,
        uuid: actor.uuid,
        email,
        first_name: "",
        last_name: "",
        is_active: true,
        organizations: org === null ? [] : [{ id: org, level }],
      });
      s.api_keys.push({ key: actor.key, user: id, scopes: ["*"] });
    });
    return actor;
  }

  /** A personal API key of `actor` limited to `scopes`. */
  async createKey(actor: Actor, scopes: string[]): Promise<Actor> {
    const key = `phx_posthog_test_scoped_${this.next++}`;
    await this.edit((s) => {
      s.api_keys.push({ key, user: actor.id, scopes });
    });
    return { ...actor, key };
  }

  /** `organization_membership.level = ...` (or `.delete()` with `null`). */
  async setLevel(actor: Actor, level: Level | null, org: string = this.org): Promise<void> {
    await this.edit((s) => {
      const user = s.users.find((u) => u.id === actor.id);
      if (!user) return;
      user.organizations = user.organizations.filter((m) => m.id !== org);
      if (level !== null) user.organizations.push({ id: org, level });
    });
  }

  /** `organization.available_product_features = ...`. */
  async setFeatures(features: Features, org: string = this.org): Promise<void> {
    await this.edit((s) => {
      const o = s.organizations.find((x) => x.id === org);
      if (o) o.features = { tagging: false, access_control: false, advanced_permissions: false, ...features };
    });
  }

  /**
   * `Integration.objects.create(team=..., kind=..., config=..., sensitive_config=...)`. The sensitive
   * part is kept only as the keys it holds (the emulator never returns or uses their values).
   */
  async createIntegration(
    kind: string,
    config: Loose = {},
    options: { team?: number; sensitive?: Loose } = {},
  ): Promise<number> {
    const state = await this.state();
    const id = Math.max(0, ...state.integrations.map((i) => i.id)) + 1;
    await this.edit((s) => {
      s.integrations.push({
        id,
        team_id: options.team ?? this.team,
        kind,
        config,
        created_by: this.user.id,
        ...(options.sensitive ? { sensitive_config: options.sensitive } : {}),
      } as never);
    });
    return id;
  }

  /**
   * `AccessControl.objects.create(team=..., resource=..., resource_id=..., access_level=...,
   * organization_member=...)`: a rule of the project; the member is named by the user's id.
   */
  async accessControl(fields: {
    resource: string;
    resource_id: number | string | null;
    access_level: string;
    organization_member?: number;
    team?: number;
  }): Promise<void> {
    const { team, ...rule } = fields;
    await this.insert("access_controls", { team_id: team ?? this.team, ...rule });
  }

  /** Adds raw records to a list of the state (a seed's partial records are completed by the emulator). */
  async insert(list: keyof StoreData, ...records: Loose[]): Promise<void> {
    await this.edit((s) => {
      (s[list] as unknown as Loose[]).push(...records);
    });
  }

  /** Changes the first record of `list` that `match` selects. */
  async update(list: keyof StoreData, match: (record: Loose) => boolean, changes: Loose): Promise<void> {
    await this.edit((s) => {
      const record = (s[list] as unknown as Loose[]).find(match);
      if (!record) throw new Error(`no ${String(list)} record matched`);
      Object.assign(record, changes);
    });
  }
}

/** One emulator per file and a fresh `World` before each test (`setUp` may be called again to reshape it). */
export function usePostHog(options: HarnessOptions & { world?: WorldOptions } = {}): {
  h: EmulatorHarness;
  world: World;
} {
  const { world: worldOptions, ...harnessOptions } = options;
  const h = useEmulator({ rateLimit: "none", ...harnessOptions });
  const world = new World(h);
  beforeEachSetUp(world, worldOptions);
  return { h, world };
}

import { beforeEach } from "vitest";

function beforeEachSetUp(world: World, options: WorldOptions | undefined): void {
  beforeEach(async () => {
    await world.setUp(options);
  });
}

/** `assert response.status_code == expected, response.json()`. */
export function assertStatus(response: ApiResponse, expected: number): void {
  expect(response.status, `${response.status} ${response.text.slice(0, 2000)}`).toBe(expected);
}

/** `ErrorResponsesMixin.validation_error_response`. */
export function validationErrorResponse(detail: string, code = "invalid_input", attr: string | null = null) {
  return { type: "validation_error", code, detail, attr };
}

/** `ErrorResponsesMixin.permission_denied_response`. */
export function permissionDeniedResponse(detail = "You do not have permission to perform this action.") {
  return { type: "authentication_error", code: "permission_denied", detail, attr: null };
}

/** `ErrorResponsesMixin.not_found_response`. */
export function notFoundResponse(detail = "Not found.") {
  return { type: "invalid_request", code: "not_found", detail, attr: null };
}

/**
 * The title of a ported test: `path::test_name`, plus the pytest id of a parametrized case. What the
 * case counts as in `npm run fidelity` follows from the marker that ends the title (README.md of this
 * folder): `notModelled` and `notPorted` below, `newerSource` and `diverging` for cases that run.
 */
export function citing(path: string) {
  return (name: string, id?: string | number) => `${path}::${name}${id === undefined ? "" : `[${id}]`}`;
}

/** `/api/projects/{team}/...` */
export const projectPath = (team: number, rest: string) => `/api/projects/${team}/${rest}`;

/**
 * A PostHog case observable through the endpoints the emulator serves that needs something it does
 * not model: skipped, with the reason in its title.
 */
export function notModelled(test: string, reason: string): void {
  it.skip(`${test} (skipped: ${reason})`, () => {});
}

/**
 * A PostHog case that is not ported: it needs an endpoint the emulator does not serve, or asserts
 * nothing observable through the ones it does (query results computed in ClickHouse, analytics
 * events, database query counts, internal functions, caches, cases PostHog itself skips). Registered
 * as a todo with the reason, so each port lists every case of its file and the report counts how much
 * of the file is ported.
 */
export function notPorted(test: string, reason: string): void {
  it.todo(`${test} (not ported: ${reason})`);
}

/**
 * The title of a case whose assertion follows a newer PostHog source than the test (the newest service
 * changed what the test's revision asserts): `source` names the file and function, and the case is
 * counted apart from the passing ones.
 */
export function newerSource(test: string, source: string): string {
  return `${test} (newer source: ${source})`;
}

/**
 * The title of a case that runs but asserts less or other than the test (a loosened matcher, a
 * timestamp or field not compared): `what` says which, and the case is counted apart from the passing
 * ones.
 */
export function diverging(test: string, what: string): string {
  return `${test} (diverges: ${what})`;
}

/** PostHog's `freeze_time`: `set` an instant, `tick` it forward; sleeps do not move it. */
export class FrozenClock implements Clock {
  #now = Date.parse(TEST_NOW);
  now(): number {
    return this.#now;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5)));
  }
  set(instant: string): void {
    // freeze_time reads a naive time as UTC.
    this.#now = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(instant) ? instant : `${instant.replace(" ", "T")}Z`);
  }
  tick(ms: number): void {
    this.#now += ms;
  }
}
