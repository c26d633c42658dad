/**
 * Ported from PostHog's products/product_analytics/backend/api/test/test_deprecated_dashboards_field.py.
 * The enforcement setting (INSIGHT_DASHBOARDS_OPT_IN_ENFORCED) is the emulator's seed switch
 * `service.insight_dashboards_opt_in_enforced`. The pure function's cases are checked through the API
 * it decides for: a personal API key, a browser session (`POST /_emulator/sessions`, Django's
 * `force_login`) and a sharing token (`?sharing_access_token=`) each reach the insight serializer.
 * PostHog revision: newest stored.
 */
import { describe, expect, it } from "vitest";
import { cite, notPorted, P, usePostHogHarness } from "./harness.js";

const name = cite("products/product_analytics/backend/api/test/test_deprecated_dashboards_field.py");
const { api } = usePostHogHarness();

async function enforce(on: boolean) {
  await api.store((s) => {
    s.service.insight_dashboards_opt_in_enforced = on;
  });
}

describe("TestShouldServeDeprecatedDashboardsField", () => {
  notPorted(name("test_serves_when_no_request_in_context"), "internal serialisation without a request");
  it(name("test_serving_by_access_method_opt_in_and_enforcement", "session_auth"), async () => {
    const [id] = await api.createInsight({ name: "insight" });
    await enforce(false);
    const response = await api.anonymous("GET", `${P}/insights/${id}`, await api.login(1));
    expect(response.status, response.text).toBe(200);
    expect("dashboards" in response.body).toBe(true);
  });
  notPorted(
    name("test_serving_by_access_method_opt_in_and_enforcement", "no_authenticator_is_first_party"),
    "no request reaches the insight serializer without an authenticator through the API (the views answer 403 first); only the service's public pages, which the emulator does not serve, serialize insights that way",
  );
  it(
    name("test_serving_by_access_method_opt_in_and_enforcement", "sharing_token_is_first_party"),
    async () => {
      const [id] = await api.createInsight({ name: "insight" });
      await api.store((s) => {
        s.sharing.push({ dashboard_id: null, insight_id: id, enabled: true, access_token: "first_party" });
      });
      await enforce(true);
      const response = await api.anonymous("GET", `${P}/insights/${id}?sharing_access_token=first_party`);
      expect(response.status, response.text).toBe(200);
      expect("dashboards" in response.body).toBe(true);
    },
  );

  // The pure function's cases for a personal API key, checked through the API it decides for.
  const cases: Array<[string, string, boolean, boolean]> = [
    ["personal_api_key_unenforced_phase", "", false, true],
    ["personal_api_key_enforced_without_opt_in", "", true, false],
    ["personal_api_key_enforced_with_opt_in", "?include_dashboards=true", true, true],
  ];
  for (const [param, query, enforced, expected] of cases) {
    it(name("test_serving_by_access_method_opt_in_and_enforcement", param), async () => {
      const [id] = await api.createInsight({ name: "insight" });
      await enforce(enforced);
      const body = await api.getInsight(id, 200, query);
      expect("dashboards" in body).toBe(expected);
    });
  }
});

describe("TestDeprecatedDashboardsFieldAPI", () => {
  async function setUp(): Promise<[number, number]> {
    const dashboard = await api.addDashboard({ name: "dash" });
    const insight = await api.addInsight({ name: "insight", saved: true });
    await api.addTile(dashboard, { insight_id: insight });
    return [dashboard, insight];
  }

  it(name("test_enforced_personal_api_key_must_opt_in_to_deprecated_dashboards_field"), async () => {
    const [dashboard, insight] = await setUp();
    await enforce(true);
    const url = `${P}/insights/${insight}/`;
    const byDefault = await api.call("GET", url);
    expect(byDefault.status).toBe(200);
    expect("dashboards" in byDefault.body).toBe(false);
    expect(byDefault.body.dashboard_tiles.map((t: { dashboard_id: number }) => t.dashboard_id)).toEqual([
      dashboard,
    ]);
    const optedIn = await api.call("GET", `${url}?include_dashboards=true`);
    expect(optedIn.status).toBe(200);
    expect(optedIn.body.dashboards).toEqual([dashboard]);
  });

  it(name("test_unenforced_personal_api_key_still_receives_deprecated_dashboards_field"), async () => {
    const [dashboard, insight] = await setUp();
    const response = await api.call("GET", `${P}/insights/${insight}/`);
    expect(response.status).toBe(200);
    expect(response.body.dashboards).toEqual([dashboard]);
  });

  it(name("test_session_auth_still_receives_deprecated_dashboards_field"), async () => {
    const [dashboard, insight] = await setUp();
    // APIBaseTest's client is logged in with a session.
    const response = await api.anonymous("GET", `${P}/insights/${insight}/`, await api.login(1));
    expect(response.status, response.text).toBe(200);
    expect(response.body.dashboards).toEqual([dashboard]);
  });
});
