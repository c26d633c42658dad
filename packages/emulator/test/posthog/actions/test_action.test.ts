/**
 * Port of PostHog's products/actions/backend/api/test/test_action.py (PostHog revision: 5310d0c, the
 * one service-api.md §13 cites), each case cited as `path::TestActionApi::test`.
 *
 * Set-up: `Action.objects.create`, `Insight.objects.create`, `Cohort.objects.create`,
 * `HogFunction.objects.create`, `Experiment.objects.create` are records of the emulator's state
 * (../cohorts/cohorts-harness.ts); `freeze_time` is the emulator's frozen clock; `Tag.objects` is the
 * team's tags as the objects hold them (the service deletes a tag no object uses). The organization has
 * the tagging feature: the tag cases assert tags are kept, which the emulator, like the service's
 * tagging rule for every kind (service-api.md §13.2), does only for organizations that have it. Left
 * out: the analytics events (`report_user_action`) but for the pin's time, which the answer shows too.
 * Not ported (named with `notPorted`): the stored bytecode (not in the API), query counts, the project
 * tree.
 */
import { describe, expect, it } from "vitest";
import { notPorted, Orm } from "../cohorts/cohorts-harness.js";
import { citing, projectPath, usePostHog } from "../harness.js";
import { FrozenClock } from "../insights/harness.js";

const FILE = "products/actions/backend/api/test/test_action.py";
const cite = citing(FILE);
const clock = new FrozenClock();
const { h, world } = usePostHog({ clock, world: { features: { tagging: true } } });
const orm = new Orm(world, h);

type Json = Record<string, unknown>;
const ANY = expect.anything();
const P = (rest: string) => projectPath(world.team, rest);
const ORIGIN = { origin: "http://testserver" };
const c = (name: string) => cite(`TestActionApi::${name}`);

async function tagCount(): Promise<number> {
  const state = await world.state();
  const tags = new Set<string>();
  for (const list of [state.actions, state.dashboards, state.insights, state.feature_flags] as Array<
    Array<{ team_id: number; tags: string[] }>
  >) {
    for (const row of list) if (row.team_id === world.team) for (const t of row.tags) tags.add(t);
  }
  return tags.size;
}

const post = (data: unknown) =>
  world
    .client()
    .raw("POST", P("actions/"), JSON.stringify(data), { "Content-Type": "application/json", ...ORIGIN });

describe("TestActionApi", () => {
  it(c("test_create_action"), async () => {
    const response = await post({
      name: "user signed up",
      steps: [{ text: "sign up", selector: "div > button", url: "/signup" }],
      description: "Test description",
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: ANY,
      name: "user signed up",
      description: "Test description",
      post_to_slack: false,
      slack_message_format: "",
      steps: [
        {
          event: null,
          properties: null,
          selector: "div > button",
          selector_regex: ANY,
          tag_name: null,
          text: "sign up",
          text_matching: null,
          href: null,
          href_matching: null,
          url: "/signup",
          url_matching: "contains",
        },
      ],
      created_at: ANY,
      created_by: ANY,
      pinned_at: null,
      deleted: false,
      creation_context: null,
      is_calculating: false,
      last_calculated_at: ANY,
      team_id: world.team,
      is_action: true,
      bytecode_error: null,
      tags: [],
      user_access_level: "manager",
    });
  });

  notPorted(
    c("test_create_action_generates_bytecode"),
    "asserts the action's stored bytecode, which the API does not return",
  );

  it(c("test_cant_create_action_with_the_same_name"), async () => {
    const original = await orm.action({ name: "user signed up" });
    const user2 = await world.createUser("tim2@posthog.com");
    const count = (await world.state()).actions.length;
    const response = await world
      .client(user2)
      .raw("POST", P("actions/"), JSON.stringify({ name: "user signed up" }), {
        "Content-Type": "application/json",
        ...ORIGIN,
      });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      type: "validation_error",
      code: "unique",
      detail: `This project already has an action with this name, ID ${original}`,
      attr: "name",
    });
    expect((await world.state()).actions.length).toBe(count);
  });

  for (const [test, name] of [
    ["test_cant_create_action_with_empty_name", ""],
    ["test_cant_create_action_with_whitespace_only_name", "   "],
  ] as const) {
    it(c(test), async () => {
      const count = (await world.state()).actions.length;
      const response = await post({ name });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        type: "validation_error",
        code: "blank",
        detail: "This field may not be blank.",
        attr: "name",
      });
      expect((await world.state()).actions.length).toBe(count);
    });
  }

  it(c("test_update_action"), async () => {
    clock.set("2021-12-12");
    const user = await world.createUser("test_user_update@posthog.com");
    const id = await orm.action({
      name: "user signed up",
      steps_json: [{ event: "$autocapture", text: "sign me up!" }],
    });
    const response = await world.client(user).raw(
      "PATCH",
      P(`actions/${id}/`),
      JSON.stringify({
        name: "user signed up 2",
        steps: [
          {
            event: "$autocapture",
            text: "sign up NOW",
            selector: "div > button",
            properties: [{ key: "$browser", value: "Chrome" }],
            url: null,
          },
          { event: "$pageview", href: "/a-new-link" },
        ],
        description: "updated description",
        created_by: {
          id: 1,
          distinct_id: "BLKJzxHq4z2d8P1icfpg5wo4eIHaSrMtnotkwdtD8Ok",
          first_name: "person",
          email: "person@email.com",
        },
        pinned_at: "2021-12-11T00:00:00Z",
      }),
      { "Content-Type": "application/json", ...ORIGIN },
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.name).toBe("user signed up 2");
    expect(response.body.description).toBe("updated description");
    expect(response.body.created_by).toBeFalsy();
    expect(response.body.steps).toEqual([
      {
        event: "$autocapture",
        properties: [{ key: "$browser", value: "Chrome" }],
        selector: "div > button",
        selector_regex: ANY,
        tag_name: null,
        text: "sign up NOW",
        text_matching: null,
        href: null,
        href_matching: null,
        url: null,
        url_matching: "contains",
      },
      {
        event: "$pageview",
        properties: null,
        selector: null,
        selector_regex: null,
        tag_name: null,
        text: null,
        text_matching: null,
        href: "/a-new-link",
        href_matching: null,
        url: null,
        url_matching: "contains",
      },
    ]);
    const state = await world.state();
    expect(state.actions.find((a) => a.id === id)?.name).toBe("user signed up 2");
    // The analytics event's `pinned: True` and `pinned_at` (the server's frozen now, not the value
    // sent), read from the answer.
    expect(Date.parse(response.body.pinned_at)).toBe(Date.parse("2021-12-12T00:00:00+00:00"));
    // Left out: the list's query count.
  });

  it(c("test_update_action_remove_all_steps"), async () => {
    const id = await orm.action({ name: "user signed up", steps_json: [{ text: "sign me up!" }] });
    const response = await world.client().patch(P(`actions/${id}/`), { name: "user signed up 2", steps: [] });
    expect(response.status).toBe(200);
    expect(response.body.steps.length).toBe(0);
  });

  it(c("test_http_to_https"), async () => {
    const response = await world
      .client()
      .raw("POST", P("actions/"), JSON.stringify({ name: "user signed up again" }), {
        "Content-Type": "application/json",
        origin: "https://testserver/",
      });
    expect(response.status, response.text).toBe(201);
  });

  it(c("test_create_action_event_with_space"), async () => {
    const response = await post({ name: "test event", steps: [{ event: "test_event " }] });
    expect(response.status).toBe(201);
    const state = await world.state();
    expect(state.actions.find((a) => a.id === response.body.id)?.steps[0]?.event).toBe("test_event ");
  });

  notPorted(c("test_listing_actions_is_not_nplus1"), "asserts database query counts");

  it(c("test_get_tags_returns_list"), async () => {
    const id = await orm.action({ name: "bla", tags: ["random"] });
    const response = await world.client().get(P(`actions/${id}`));
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual(["random"]);
    expect((await world.state()).actions.length).toBe(1);
  });

  it(c("test_create_action_with_tags"), async () => {
    const response = await world.client().post(P("actions/"), { name: "Default", tags: ["random", "hello"] });
    expect(response.status).toBe(201);
    expect([...response.body.tags].sort()).toEqual(["hello", "random"]);
    expect(await tagCount()).toBe(2);
  });

  it(c("test_update_action_tags"), async () => {
    const id = await orm.action({ name: "private dashboard", tags: ["random"] });
    const response = await world.client().patch(P(`actions/${id}`), {
      name: "action new name",
      tags: ["random", "hello"],
      description: "Internal system metrics.",
    });
    expect(response.status).toBe(200);
    expect([...response.body.tags].sort()).toEqual(["hello", "random"]);
  });

  it(c("test_undefined_tags_allows_other_props_to_update"), async () => {
    const id = await orm.action({ name: "private action", tags: ["random"] });
    const response = await world
      .client()
      .patch(P(`actions/${id}`), { name: "action new name", description: "Internal system metrics." });
    expect(response.status).toBe(200);
    expect(response.body.name).toBe("action new name");
    expect(response.body.description).toBe("Internal system metrics.");
  });

  it(c("test_empty_tags_clears_all_tags"), async () => {
    const id = await orm.action({ name: "private dashboard", tags: ["random"] });
    expect((await world.state()).actions.length).toBe(1);
    const response = await world.client().patch(P(`actions/${id}`), {
      name: "action new name",
      description: "Internal system metrics.",
      tags: [],
    });
    expect(response.status).toBe(200);
    expect(response.body.tags).toEqual([]);
    expect(await tagCount()).toBe(0);
  });

  it(c("test_hard_deletion_is_forbidden"), async () => {
    const response = await post({
      name: "user signed up",
      steps: [{ text: "sign up", selector: "div > button", url: "/signup", isNew: "asdf" }],
      description: "Test description",
    });
    expect(response.status).toBe(201);
    const deletion = await world.client().delete(P(`actions/${response.body.id}`));
    expect(deletion.status).toBe(405);
  });

  notPorted(
    c("test_create_action_in_specific_folder"),
    "asserts the project tree's file system entry (not modelled)",
  );

  const references = (id: number) => world.client().get(P(`actions/${id}/references/`));
  const trends = (id: number) => ({
    kind: "DataTableNode",
    source: { kind: "TrendsQuery", series: [{ kind: "ActionsNode", id }] },
  });
  const behavioral = (id: number) => ({
    properties: {
      type: "AND",
      values: [{ type: "AND", values: [{ type: "behavioral", event_type: "actions", key: id }] }],
    },
  });
  const metrics = (id: number) => [
    {
      kind: "ExperimentTrendsQuery",
      count_query: { kind: "TrendsQuery", series: [{ kind: "ActionsNode", id }] },
    },
  ];
  const testAction = () => orm.action({ name: "test action", steps_json: [{ event: "$pageview" }] });

  it(c("test_references_returns_insight_using_action"), async () => {
    const action = await testAction();
    const insight = await orm.insight({ name: "My insight", query: trends(action) });
    const response = await references(action);
    expect(response.status).toBe(200);
    const data = response.body;
    expect(data.length).toBe(1);
    expect(data[0].type).toBe("insight");
    expect(data[0].name).toBe("My insight");
    expect(data[0].id).toBe(insight.short_id);
    expect(data[0].url).toBe(`/insights/${insight.short_id}`);
  });

  it(c("test_references_returns_insight_with_legacy_filters"), async () => {
    const action = await testAction();
    await orm.insight({ name: "Legacy insight", filters: { actions: [{ id: action, type: "actions" }] } });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(1);
    expect(response.body[0].type).toBe("insight");
    expect(response.body[0].name).toBe("Legacy insight");
  });

  it(c("test_references_returns_experiment_using_action"), async () => {
    const action = await testAction();
    const flag = await orm.flag({ key: "exp-flag" });
    const exp = await orm.experiment({
      name: "My experiment",
      created_by: world.user.id,
      feature_flag: flag,
      metrics: metrics(action),
    });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(1);
    expect(response.body[0].type).toBe("experiment");
    expect(response.body[0].name).toBe("My experiment");
    expect(response.body[0].url).toBe(`/experiments/${exp}`);
  });

  it(c("test_references_returns_cohort_using_action"), async () => {
    const action = await testAction();
    const cohort = await orm.cohort({ name: "My cohort", filters: behavioral(action) });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(1);
    expect(response.body[0].type).toBe("cohort");
    expect(response.body[0].name).toBe("My cohort");
    expect(response.body[0].url).toBe(`/cohorts/${cohort}`);
  });

  it(c("test_references_returns_hog_function_using_action"), async () => {
    const action = await testAction();
    const hf = await orm.hogFunction({
      name: "My destination",
      filters: { actions: [{ id: String(action), type: "actions" }] },
    });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(1);
    expect(response.body[0].type).toBe("hog_function");
    expect(response.body[0].name).toBe("My destination");
    expect(response.body[0].url).toBe(`/functions/${hf}`);
  });

  it(c("test_references_returns_empty_list_when_no_references"), async () => {
    const action = await orm.action({ name: "orphan action", steps_json: [{ event: "$pageview" }] });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it(c("test_references_does_not_return_deleted_insights"), async () => {
    const action = await testAction();
    await orm.insight({ name: "Deleted insight", deleted: true, query: trends(action) });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it(c("test_references_does_not_return_deleted_experiments"), async () => {
    const action = await testAction();
    const flag = await orm.flag({ key: "deleted-exp-flag" });
    await orm.experiment({
      name: "Deleted experiment",
      created_by: world.user.id,
      feature_flag: flag,
      deleted: true,
      metrics: metrics(action),
    });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it(c("test_references_does_not_return_deleted_cohorts"), async () => {
    const action = await testAction();
    await orm.cohort({ name: "Deleted cohort", deleted: true, filters: behavioral(action) });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it(c("test_references_does_not_return_deleted_hog_functions"), async () => {
    const action = await testAction();
    await orm.hogFunction({
      name: "Deleted destination",
      deleted: true,
      filters: { actions: [{ id: String(action), type: "actions" }] },
    });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it(c("test_references_matches_action_id_stored_as_string"), async () => {
    const action = await testAction();
    const hf = await orm.hogFunction({
      name: "String ID destination",
      filters: { actions: [{ id: String(action), type: "actions" }] },
    });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(1);
    expect(response.body[0].type).toBe("hog_function");
    expect(response.body[0].id).toBe(hf);
  });

  it(c("test_references_does_not_return_other_team_resources"), async () => {
    const action = await testAction();
    const otherTeam = await world.createTeam();
    await orm.insight({ team_id: otherTeam, name: "Other team insight", query: trends(action) });
    const response = await references(action);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it(c("test_include_reference_count_param_adds_count_to_list"), async () => {
    const action = await orm.action({ name: "action with refs", steps_json: [{ event: "$pageview" }] });
    await orm.insight({ name: "Referencing insight", query: trends(action) });
    const response = await world.client().get(P("actions/"), { include_reference_count: 1 });
    expect(response.status).toBe(200);
    const result = response.body.results.find((r: Json) => r.id === action);
    expect(result.reference_count).toBe(1);
  });

  it(c("test_list_without_include_reference_count_omits_count"), async () => {
    await orm.action({ name: "some action", steps_json: [{ event: "$pageview" }] });
    const response = await world.client().get(P("actions/"));
    expect(response.status).toBe(200);
    const results = response.body.results;
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect(result).not.toHaveProperty("reference_count");
  });

  it(c("test_include_reference_count_returns_correct_counts_for_multiple_actions"), async () => {
    const withRefs = await orm.action({ name: "action with refs", steps_json: [{ event: "$pageview" }] });
    const withoutRefs = await orm.action({
      name: "action without refs",
      steps_json: [{ event: "$pageleave" }],
    });
    await orm.insight({ name: "Referencing insight", query: trends(withRefs) });
    const response = await world.client().get(P("actions/"), { include_reference_count: 1 });
    expect(response.status).toBe(200);
    const counts = Object.fromEntries(response.body.results.map((r: Json) => [r.id, r.reference_count]));
    expect(counts[withRefs]).toBe(1);
    expect(counts[withoutRefs]).toBe(0);
  });

  it(c("test_include_reference_count_counts_across_all_resource_types"), async () => {
    const action = await orm.action({ name: "widely used action", steps_json: [{ event: "$pageview" }] });
    await orm.insight({ name: "Insight ref", query: trends(action) });
    const flag = await orm.flag({ key: "bulk-count-flag" });
    await orm.experiment({
      name: "Experiment ref",
      created_by: world.user.id,
      feature_flag: flag,
      metrics: metrics(action),
    });
    await orm.cohort({ name: "Cohort ref", filters: behavioral(action) });
    await orm.hogFunction({
      name: "Hog function ref",
      filters: { actions: [{ id: String(action), type: "actions" }] },
    });
    const response = await world.client().get(P("actions/"), { include_reference_count: 1 });
    expect(response.status).toBe(200);
    const result = response.body.results.find((r: Json) => r.id === action);
    expect(result.reference_count).toBe(4);
  });
});
