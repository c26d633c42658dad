/**
 * The emulator's action routes (reference §13) beyond what PostHog's own tests (test/posthog/actions/)
 * cover: the hand-written list and its parameters, the stored form of steps, names, pins, soft deletes
 * and restores, the limit's 402, scopes and access rules, and the default seed's actions.
 */
import { describe, expect, it } from "vitest";
import { ACTION_IDS } from "../src/default-seed.js";
import { type Json, P, type PartialState, useEmulator } from "./support/harness.js";

const h = useEmulator();
const ACTIONS = `${P}/actions`;
const names = (body: Json) => body.results.map((a: Json) => a.name);

describe("actions: the list", () => {
  it("answers every live action without limit, as {count, results} with no next or previous", async () => {
    const list = await h.api("GET", `${ACTIONS}/`);
    expect(list.status).toBe(200);
    expect(Object.keys(list.body).sort()).toEqual(["count", "results"]);
    expect(list.body.count).toBe(3);
    // -last_calculated_at (their creation), then name; the soft-deleted "Old signup" is left out.
    expect(names(list.body)).toEqual(["Viewed pricing page", "Clicked buy button", "Signed up"]);
  });

  it("pages with limit and offset (count is then the total) and ignores what is not a number", async () => {
    const page = await h.api("GET", `${ACTIONS}/?limit=2&offset=1`);
    expect(page.body).toMatchObject({ count: 3 });
    expect(names(page.body)).toEqual(["Clicked buy button", "Signed up"]);
    const offsetOnly = await h.api("GET", `${ACTIONS}/?offset=2`);
    expect(offsetOnly.body.count).toBe(3);
    expect(names(offsetOnly.body)).toEqual(["Signed up"]);
    const junk = await h.api("GET", `${ACTIONS}/?limit=abc&offset=-4`);
    expect(junk.body.count).toBe(3);
  });

  it("filters by search, created_by and tags, and orders by a known field", async () => {
    expect(names((await h.api("GET", `${ACTIONS}/?search=SIGNED`)).body)).toEqual(["Signed up"]);
    expect(names((await h.api("GET", `${ACTIONS}/?created_by=2,x`)).body)).toEqual(["Viewed pricing page"]);
    expect(names((await h.api("GET", `${ACTIONS}/?tags=${encodeURIComponent('["growth"]')}`)).body)).toEqual([
      "Signed up",
    ]);
    expect(names((await h.api("GET", `${ACTIONS}/?ordering=name`)).body)).toEqual([
      "Clicked buy button",
      "Signed up",
      "Viewed pricing page",
    ]);
    // Postgres orders nulls last ascending and first descending.
    expect(names((await h.api("GET", `${ACTIONS}/?ordering=pinned_at`)).body)[0]).toBe("Viewed pricing page");
    expect(names((await h.api("GET", `${ACTIONS}/?ordering=-pinned_at`)).body).at(-1)).toBe(
      "Viewed pricing page",
    );
    expect(names((await h.api("GET", `${ACTIONS}/?ordering=bogus`)).body)).toHaveLength(3);
  });
});

describe("actions: writes", () => {
  it("stores steps with their ten keys, url and selector trimmed, unknown keys dropped", async () => {
    const res = await h.api("POST", `${ACTIONS}/`, {
      name: "Trimmed",
      steps: [{ event: "$autocapture ", selector: "  a.cta  ", url: " /docs ", isNew: true }],
    });
    expect(res.status).toBe(201);
    const stored = (await h.state()).actions.find((a: Json) => a.id === res.body.id);
    expect(stored.steps).toEqual([
      {
        tag_name: null,
        text: null,
        text_matching: null,
        href: null,
        href_matching: null,
        selector: "a.cta",
        url: "/docs",
        url_matching: "contains",
        event: "$autocapture ",
        properties: null,
      },
    ]);
    expect(res.body.steps[0].selector_regex).toBe("(^|;)a.*?\\.cta[^;]*?($|;|:([^;^\\s]*(;|$|\\s)))");
  });

  it("refuses blank step values and unknown matching choices, naming the step's field", async () => {
    const blank = await h.api("POST", `${ACTIONS}/`, { name: "x", steps: [{ event: "a" }, { url: "   " }] });
    expect(blank.body).toMatchObject({ code: "blank", attr: "steps__1__url" });
    const choice = await h.api("POST", `${ACTIONS}/`, {
      name: "y",
      steps: [{ url: "/a", url_matching: "glob" }],
    });
    expect(choice.body).toMatchObject({ code: "invalid_choice", detail: '"glob" is not a valid choice.' });
  });

  it("keeps names unique among live actions only, and a restore without a name is not checked", async () => {
    const taken = await h.api("POST", `${ACTIONS}/`, { name: "Signed up" });
    expect(taken.body).toEqual({
      type: "validation_error",
      code: "unique",
      detail: `This project already has an action with this name, ID ${ACTION_IDS.signedUp}`,
      attr: "name",
    });
    const reused = await h.api("POST", `${ACTIONS}/`, { name: "Old signup" });
    expect(reused.status).toBe(201);
    const restored = await h.api("PATCH", `${ACTIONS}/${ACTION_IDS.oldSignup}/`, { deleted: false });
    expect(restored.status).toBe(200);
    const live = (await h.api("GET", `${ACTIONS}/?search=Old`)).body;
    expect(live.count).toBe(2);
    const renamedBack = await h.api("PATCH", `${ACTIONS}/${ACTION_IDS.oldSignup}/`, { name: "Old signup" });
    expect(renamedBack.body.code).toBe("unique");
  });

  it("soft-deletes an action others use (never refused) and answers DELETE with 405", async () => {
    const deleted = await h.api("PATCH", `${ACTIONS}/${ACTION_IDS.signedUp}/`, { deleted: true });
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBe(true);
    expect((await h.api("GET", `${ACTIONS}/${ACTION_IDS.signedUp}/`)).status).toBe(200);
    expect((await h.api("DELETE", `${ACTIONS}/${ACTION_IDS.clickedBuy}/`)).status).toBe(405);
  });

  it("pins with the server's time, keeps a pin, and unpins with null or an empty string", async () => {
    const pinned = await h.api("PATCH", `${ACTIONS}/${ACTION_IDS.signedUp}/`, {
      pinned_at: "2001-01-01T00:00:00Z",
    });
    const at = pinned.body.pinned_at;
    expect(Math.abs(Date.parse(at) - h.clock.now())).toBeLessThan(60_000);
    const again = await h.api("PATCH", `${ACTIONS}/${ACTION_IDS.signedUp}/`, {
      pinned_at: "2030-01-01T00:00:00Z",
    });
    expect(again.body.pinned_at).toBe(at);
    expect(
      (await h.api("PATCH", `${ACTIONS}/${ACTION_IDS.signedUp}/`, { pinned_at: "" })).body.pinned_at,
    ).toBeNull();
  });

  it("answers 402 limit_exceeded when the team has as many live actions as its limit", async () => {
    await h.reseed<Json>((s) => {
      s.service.max_actions_per_team = 3;
    });
    const res = await h.api("POST", `${ACTIONS}/`, { name: "One too many" });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({
      type: "limit_exceeded",
      code: "limit_exceeded",
      detail: "Resource limit exceeded.",
      limit_key: "analytics.max_actions_per_team",
      limit: 3,
      current: 3,
    });
    expect(res.body.request.id).toMatch(/^[0-9a-f-]{36}$/);
    await h.api("PATCH", `${ACTIONS}/${ACTION_IDS.clickedBuy}/`, { deleted: true });
    expect((await h.api("POST", `${ACTIONS}/`, { name: "Now it fits" })).status).toBe(201);
  });

  it("keeps tags only for organizations with tagging, lowercased and deduplicated", async () => {
    const tagged = await h.api("POST", `${ACTIONS}/`, {
      name: "Tagged",
      tags: ["Growth", "growth ", "beta"],
    });
    expect(tagged.body.tags).toEqual(["beta", "growth"]);
    await h.reseed<Json>((s) => {
      s.organizations[0].features.tagging = false;
    });
    const untagged = await h.api("POST", `${ACTIONS}/`, { name: "Untagged", tags: ["x"] });
    expect(untagged.body.tags).toEqual([]);
  });
});

describe("actions: routes, scopes and access", () => {
  it("exists under /api/projects/ only, with the action scopes", async () => {
    expect((await h.api("GET", "/api/environments/12345/actions/")).status).toBe(404);
    await h.reseed<PartialState>((s) => {
      s.api_keys?.push({ key: "phx_action_read", user: 1, scopes: ["action:read"] });
    });
    expect((await h.api("GET", `${ACTIONS}/`, undefined, { key: "phx_action_read" })).status).toBe(200);
    const write = await h.api("POST", `${ACTIONS}/`, { name: "x" }, { key: "phx_action_read" });
    expect(write.status).toBe(403);
    expect(write.body.detail).toBe("API key missing required scope 'action:write'");
  });

  it("applies access control rules per action", async () => {
    await h.reseed<PartialState>((s) => {
      s.access_controls?.push({
        team_id: 12345,
        resource: "action",
        resource_id: String(ACTION_IDS.clickedBuy),
        access_level: "none",
      });
    });
    const bob = "phx_emulator_bob";
    expect(names((await h.api("GET", `${ACTIONS}/`, undefined, { key: bob })).body)).not.toContain(
      "Clicked buy button",
    );
    expect((await h.api("GET", `${ACTIONS}/${ACTION_IDS.clickedBuy}/`, undefined, { key: bob })).status).toBe(
      403,
    );
    const mine = (await h.api("GET", `${ACTIONS}/${ACTION_IDS.viewedPricing}/`, undefined, { key: bob }))
      .body;
    expect(mine.user_access_level).toBe("manager");
  });
});
