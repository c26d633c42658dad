/**
 * The harness of the ported PostHog insight and tile tests: one emulator per file on a clock the test
 * can freeze and move (PostHog's `freeze_time`), and a port of PostHog's `DashboardAPI` test helper
 * (posthog/api/test/dashboards/__init__.py) over loopback. PostHog's tests create rows straight in the
 * database (`Insight.objects.create`, `DashboardTile.objects.create`); the port puts the same rows in
 * the emulator's store (`addInsight`, `addTile`), which is what a seed is for.
 *
 * Set-up mapping: `self.team` is project 12345 and `self.user` alice (key `phx_emulator`); "another
 * team" is project 12346 of the same organization; "another user" is bob (`phx_emulator_bob`), a
 * member of the organization. Every test names the PostHog test it ports as `path::test_name`.
 * Note that alice is an organization admin: a case that needs `self.user` to be a plain member says so
 * (`setLevel`).
 */

import { beforeEach, expect } from "vitest";
import { BOB_KEY } from "../../../src/default-seed.js";
import { TEST_NOW } from "../../support/clock.js";
import { type ApiResponse, type EmulatorHarness, type Json, useEmulator } from "../../support/harness.js";
import { FrozenClock } from "../harness.js";

export { citing as cite, FrozenClock } from "../harness.js";
export { BOB_KEY };

export const TEAM = 12345;
export const OTHER_TEAM = 12346;
export const P = `/api/projects/${TEAM}`;

export interface PostHogHarness {
  h: EmulatorHarness;
  clock: FrozenClock;
  api: DashboardApi;
}

export function usePostHogHarness(): PostHogHarness {
  const clock = new FrozenClock();
  // The clock stands still, so the ClickHouse throttle's window would never move on: no rate limit here.
  const h = useEmulator({ clock, rateLimit: "none" });
  const api = new DashboardApi(h);
  beforeEach(() => {
    clock.set(TEST_NOW);
    api.key = undefined;
  });
  return { h, clock, api };
}

export { diverging, newerSource, notModelled, notPorted } from "../harness.js";

type Body = Record<string, unknown>;

/** The emulator's answers, with the status checked like the helper's `assertEqual`. */
export class DashboardApi {
  /** The key requests are sent with (`force_login` switches it). */
  key: string | undefined;

  constructor(readonly h: EmulatorHarness) {}

  async call(method: string, path: string, body?: unknown, key = this.key): Promise<ApiResponse> {
    return this.h.api(method, path, body, key === undefined ? {} : { key });
  }

  private async expect(res: Promise<ApiResponse>, status: number): Promise<Json> {
    const answer = await res;
    expect(answer.status, answer.text).toBe(status);
    return answer.body;
  }

  async softDelete(
    id: number,
    type: "insights" | "dashboards",
    extra: Body = {},
    getStatus = 404,
  ): Promise<void> {
    await this.expect(this.call("PATCH", `${P}/${type}/${id}`, { deleted: true, ...extra }), 200);
    expect((await this.call("GET", `${P}/${type}/${id}`)).status).toBe(getStatus);
  }

  async createDashboard(data: Body, status = 201): Promise<[number, Json]> {
    const json = await this.expect(this.call("POST", `${P}/dashboards/`, data), status);
    return [status === 201 ? json.id : -1, json];
  }

  async updateDashboard(id: number, data: Body, status = 200): Promise<[number, Json]> {
    const json = await this.expect(this.call("PATCH", `${P}/dashboards/${id}`, data), status);
    return [status === 200 ? json.id : -1, json];
  }

  async getDashboard(id: number, status = 200, query = ""): Promise<Json> {
    return this.expect(this.call("GET", `${P}/dashboards/${id}${query}`), status);
  }

  async listInsights(query = ""): Promise<Json> {
    return this.expect(this.call("GET", `${P}/insights/?basic=true&limit=30${query}`), 200);
  }

  async getInsight(id: number | string, status = 200, query = ""): Promise<Json> {
    return this.expect(this.call("GET", `${P}/insights/${id}${query}`), status);
  }

  async createInsight(data: Body, status = 201, team = TEAM): Promise<[number, Json]> {
    const body =
      "filters" in data || "query" in data ? data : { ...data, filters: { events: [{ id: "$pageview" }] } };
    const json = await this.expect(this.call("POST", `/api/projects/${team}/insights`, body), status);
    return [json?.id, json];
  }

  async updateInsight(id: number, data: Body, status = 200): Promise<[number, Json]> {
    const json = await this.expect(this.call("PATCH", `${P}/insights/${id}`, data), status);
    return [json?.id, json];
  }

  /** `DashboardAPI.get_insight_activity`: the insight's activity (the project's without an id). */
  async getInsightActivity(id?: number, status = 200): Promise<Json> {
    const path = id === undefined ? `${P}/insights/activity` : `${P}/insights/${id}/activity`;
    return this.expect(this.call("GET", path), status);
  }

  /**
   * `APIBaseTest`'s `self.user` as its activity-log rows show it (`{first_name: "", email:
   * "user1@posthog.com"}`): alice's name and email become the fixture's.
   */
  async asPostHogUser(): Promise<void> {
    await this.store((s) => {
      const alice = s.users.find((u: Json) => u.id === 1);
      alice.first_name = "";
      alice.email = "user1@posthog.com";
    });
  }

  async createTextTile(
    dashboardId: number,
    text = "I AM TEXT!",
    extra: Body = {},
    status = 200,
  ): Promise<[number, Json]> {
    const json = await this.expect(
      this.call("PATCH", `${P}/dashboards/${dashboardId}`, { tiles: [{ text: { body: text }, ...extra }] }),
      status,
    );
    return [json?.id, json];
  }

  async updateTextTile(dashboardId: number, tile: Body, status = 200): Promise<[number, Json]> {
    const json = await this.expect(
      this.call("PATCH", `${P}/dashboards/${dashboardId}`, { tiles: [tile] }),
      status,
    );
    return [json?.id, json];
  }

  async setTileLayout(dashboardId: number, expectedTiles: number): Promise<void> {
    const tiles = (await this.getDashboard(dashboardId)).tiles as Json[];
    expect(tiles.length).toBe(expectedTiles);
    let x = 0;
    let y = 0;
    for (const tile of tiles) {
      x += 1;
      y += 1;
      const layouts = {
        sm: { w: "7", h: "5", x: String(x), y: String(y), moved: "False", static: "False" },
        xs: { x: "0", y: "0", w: "6", h: "5" },
      };
      await this.expect(
        this.call("PATCH", `${P}/dashboards/${dashboardId}`, { tiles: [{ id: tile.id, layouts }] }),
        200,
      );
    }
  }

  async addInsightToDashboard(dashboardIds: number[], insightId: number, status = 200): Promise<void> {
    await this.expect(this.call("PATCH", `${P}/insights/${insightId}`, { dashboards: dashboardIds }), status);
  }

  /** `Insight.objects.create(...)`: a row straight in the store; its id. */
  async addInsight(fields: Body): Promise<number> {
    let id = 0;
    await this.h.reseed<Json>((s) => {
      id = s.sequences.insight;
      s.insights.push({
        team_id: TEAM,
        created_at: new Date(this.h.clock.now()).toISOString(),
        ...fields,
        id,
      });
      s.sequences.insight = id + 1;
    });
    return id;
  }

  /** `DashboardTile.objects.create(...)`: a tile straight on a dashboard; its id. */
  async addTile(dashboardId: number, fields: Body): Promise<number> {
    let id = 0;
    await this.h.reseed<Json>((s) => {
      id = s.sequences.tile;
      const d = s.dashboards.find((x: Json) => x.id === dashboardId);
      d.tiles.push({ layouts: {}, color: null, deleted: null, ...fields, id });
      s.sequences.tile = id + 1;
    });
    return id;
  }

  /** `Dashboard.objects.create(...)`: a dashboard row; its id. */
  async addDashboard(fields: Body): Promise<number> {
    let id = 0;
    await this.h.reseed<Json>((s) => {
      id = s.sequences.dashboard;
      s.dashboards.push({ team_id: TEAM, created_by: 1, tiles: [], ...fields, id });
      s.sequences.dashboard = id + 1;
    });
    return id;
  }

  /** Changes stored rows outside the API (`Model.objects.filter(...).update(...)`). */
  async store(mutate: (state: Json) => void): Promise<void> {
    await this.h.reseed<Json>(mutate);
  }

  /**
   * `AccessControl.objects.create(team=..., resource=..., resource_id=..., access_level=...,
   * organization_member=...)`: a rule of the project (the member named by user id).
   */
  async addAccessControl(fields: {
    resource: string;
    resource_id: number | string | null;
    access_level: string;
    organization_member?: number;
    team_id?: number;
  }): Promise<void> {
    await this.store((s) => {
      s.access_controls.push({ team_id: TEAM, ...fields });
    });
  }

  /** `organization_membership.level = ...` for a user of the seed's organization. */
  async setLevel(userId: number, level: "member" | "admin" | "owner"): Promise<void> {
    await this.store((s) => {
      const membership = s.users.find((u: Json) => u.id === userId).organizations[0];
      membership.level = level;
    });
  }

  /** `organization.available_product_features = [...]` of the seed's organization (access control only). */
  async setAccessControl(on: boolean): Promise<void> {
    await this.store((s) => {
      const org = s.organizations.find(
        (o: Json) => o.id === s.projects.find((p: Json) => p.id === TEAM).organization,
      );
      org.features.access_control = on;
    });
  }

  /**
   * `client.force_login(user)` in a browser: a session of the user (`POST /_emulator/sessions`); the
   * answer is the headers its requests carry (the cookies and, for unsafe methods, the CSRF header).
   */
  async login(userId: number): Promise<Record<string, string>> {
    const opened = await this.h.control("POST", "sessions", { user: userId });
    expect(opened.status, opened.text).toBe(201);
    const { sessionid, csrftoken } = opened.body;
    return { Cookie: `sessionid=${sessionid}; csrftoken=${csrftoken}`, "X-CSRFToken": csrftoken };
  }

  /** A request with the given headers and no personal API key (a session, a sharing token, nobody). */
  async anonymous(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
    return this.h.api(method, path, body, { key: null, headers });
  }
}

/**
 * The emulator writes instants with milliseconds (`…:00.000Z`) where Django REST Framework drops a zero
 * fraction (`…:00Z`): answers are rewritten to DRF's form before they are compared with PostHog's
 * expected values, so the instants themselves are what is compared.
 */
export function drfTimes<T>(value: T): T {
  if (typeof value === "string") {
    return (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/.test(value) ? value.replace(".000Z", "Z") : value) as T;
  }
  if (Array.isArray(value)) return value.map(drfTimes) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, drfTimes(v)])) as T;
  }
  return value;
}

/** PostHog's serialised user (`UserBasicSerializer`) for a seed user. */
export async function serialisedUser(h: EmulatorHarness, id: number | null): Promise<Json> {
  if (id === null) return null;
  const u = (await h.state()).users.find((x: Json) => x.id === id);
  return {
    id: u.id,
    uuid: u.uuid,
    distinct_id: u.uuid,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    is_email_verified: true,
    hedgehog_config: null,
    role_at_organization: null,
  };
}

/**
 * Fields the newer `DashboardTileSerializer` writes besides those of the stored tile tests' expected
 * tiles (products/dashboards/backend/api/dashboard.py: button tiles, display settings; the text card's
 * `dashboard_tiles`), as posthog/api/test/dashboards/test_dashboard.py's newest stored revision expects
 * them. The ports compare the tests' own fields exactly and these as present.
 */
export const NEWEST_TILE_FIELDS = {
  button_tile: null,
  show_description: null,
  transparent_background: null,
};
