/**
 * Service answers are checked before they are trusted (SPEC §8): a 2xx body of the wrong shape is an
 * UnexpectedAnswerError naming what is wrong, never an empty list (which would make apply create
 * duplicates); extra fields pass.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backfillsApi, logsApi, runsApi } from "../../src/kinds/batch-export/operations/service.js";
import { batchExportsApi } from "../../src/kinds/batch-export/service.js";
import { collaboratorsApi, dashboardsApi, sharingApi } from "../../src/kinds/dashboard/service.js";
import { collect, ServiceClient } from "../../src/service/client.js";
import { ServiceError, UnexpectedAnswerError } from "../../src/service/errors.js";
import { type FakeServer, json, startFakeServer } from "./fake-server.js";
import { batchExport, collaborator, cursorPage, dashboard, offsetPage, run, sharing } from "./samples.js";

const KEY = "phx_AnswersTestKey0123456789";
let server: FakeServer;
let client: ServiceClient;

beforeAll(async () => {
  server = await startFakeServer();
  client = new ServiceClient({
    host: server.url,
    apiKey: KEY,
    clock: { now: () => 0, sleep: async () => {} },
  });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** Answers every request with `body` (a raw string is sent as is). */
function answer(body: unknown, status = 200): void {
  server.setHandler((_req, res) => {
    if (typeof body === "string") {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(body);
    } else json(res, status, body);
  });
}

async function failure(run: () => Promise<unknown>): Promise<UnexpectedAnswerError> {
  const before = server.seen.length;
  const error = await run().then(
    (value) => new Error(`resolved with ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnexpectedAnswerError);
  expect(error).toBeInstanceOf(ServiceError);
  const e = error as UnexpectedAnswerError;
  expect(e.exitCode).toBe(1);
  expect(e.message).not.toContain("\n");
  expect(e.message).not.toContain(KEY);
  // A wrong shape is never retried: the service answered; asking again would not change its mind.
  expect(server.seen.length - before).toBe(1);
  return e;
}

const PREFIX = "unexpected answer from the service for GET dashboards: ";

describe("the dashboards list (what plan reads)", () => {
  it.each([
    ["a list sent as a string", '"[{\\"id\\": 1}]"', "the answer is not an object (it is a string)"],
    ["an empty object", {}, "the answer has no results"],
    ["a bare array where an envelope belongs", [dashboard(1)], "the answer is not an object (it is a list)"],
    ["missing results", { count: 0, next: null }, "the answer has no results"],
    [
      "results that is not a list",
      { count: 1, next: null, results: "none" },
      "results is not a list (it is a string)",
    ],
    [
      "an item without id",
      offsetPage([dashboard(1), { ...dashboard(2), id: undefined }]),
      "results[1] has no id",
    ],
    ["an item without name", offsetPage([{ ...dashboard(1), name: undefined }]), "results[0] has no name"],
    [
      "an id that is not a number",
      offsetPage([dashboard(1, { id: "1" })]),
      "results[0].id is not a whole number (it is a string)",
    ],
    [
      "count that is not a number",
      { ...offsetPage([dashboard(1)]), count: "1" },
      "count is not a whole number (it is a string)",
    ],
    ["a negative count", offsetPage([dashboard(1)], -1), "count is below 0"],
    ["no next key", { count: 1, results: [dashboard(1)] }, "the answer has no next"],
    [
      "a level outside 21 / 37",
      offsetPage([dashboard(1, { restriction_level: 99 })]),
      "results[0].restriction_level is not one of 21, 37",
    ],
    [
      "tags that are not strings",
      offsetPage([dashboard(1, { tags: [{ name: "x" }] })]),
      "results[0].tags[0] is not a string (it is an object)",
    ],
    ["a body that is not JSON", "<html>Bad gateway</html>", "the answer is not JSON"],
    ["an empty body", "", "the answer is empty"],
    ["null", "null", "the answer is not an object (it is null)"],
  ])("%s is an error, not an empty list", async (_what, body, problem) => {
    answer(body);
    const error = await failure(() => dashboardsApi(client).listAll(1));
    // A web page where JSON belongs says which host answered, and what to check.
    const hint =
      problem === "the answer is not JSON"
        ? `: ${new URL(server.url).origin} does not answer like PostHog's API: check POSTHOG_HOST / --host (e.g. https://us.posthog.com or https://eu.posthog.com)`
        : "";
    expect(error.message).toBe(PREFIX + problem + hint);
    expect(error.problem).toBe(problem);
    expect(error.status).toBe(200);
    // The lazy list (used by lookups after a lost create) refuses it too.
    answer(body);
    await failure(() => collect(dashboardsApi(client).list(1)));
  });

  it("lets extra fields through, at every level", async () => {
    const extra = { ...dashboard(1, { folder: "Unfiled", brand_new: { nested: [1] } }), deleted: false };
    answer({ ...offsetPage([extra]), also_new: true });
    await expect(dashboardsApi(client).listAll(1)).resolves.toEqual([extra]);
  });

  it("never quotes the answer's own text", async () => {
    answer(offsetPage([dashboard(1, { name: { evil: "\u001b[31mred" } })]));
    const error = await failure(() => dashboardsApi(client).listAll(1));
    expect(error.message).toBe(`${PREFIX}results[0].name is not a string or null (it is an object)`);
  });
});

describe("every other answer the tool reads", () => {
  it.each([
    [
      "collaborators as an object",
      { results: [collaborator("u")] },
      (c: ServiceClient) => collaboratorsApi(c).list(1, 2),
      "GET dashboards/2/collaborators: the answer is not a list (it is an object)",
    ],
    [
      "a collaborator without the user's uuid",
      [{ ...collaborator("u"), user: { id: 3 } }],
      (c: ServiceClient) => collaboratorsApi(c).list(1, 2),
      "GET dashboards/2/collaborators: answer[0].user has no uuid",
    ],
    [
      "sharing as a list (the published schema's mistake)",
      [sharing],
      (c: ServiceClient) => sharingApi(c).get(1, 2),
      "GET dashboards/2/sharing: the answer is not an object (it is a list)",
    ],
    [
      "sharing without enabled",
      { access_token: "t" },
      (c: ServiceClient) => sharingApi(c).get(1, 2),
      "GET dashboards/2/sharing: the answer has no enabled",
    ],
    [
      "a batch export list without count",
      { next: null, results: [batchExport("e")] },
      (c: ServiceClient) => batchExportsApi(c).listAll(1),
      "GET batch_exports: the answer has no count",
    ],
    [
      "a batch export without paused",
      offsetPage([{ ...batchExport("e"), paused: undefined }]),
      (c: ServiceClient) => batchExportsApi(c).listAll(1),
      "GET batch_exports: results[0] has no paused",
    ],
    [
      "a batch export whose destination has no type",
      batchExport("e", { destination: { config: {} } }),
      (c: ServiceClient) => batchExportsApi(c).get(1, "e"),
      "GET batch_exports/e: destination has no type",
    ],
    [
      "a run page without next",
      { results: [run("r")] },
      (c: ServiceClient) => collect(runsApi(c).list(1, "e")),
      "GET batch_exports/e/runs: the answer has no next",
    ],
    [
      "a run without status",
      cursorPage([{ id: "r", created_at: "2026-11-20T11:00:00Z" }]),
      (c: ServiceClient) => collect(runsApi(c).list(1, "e")),
      "GET batch_exports/e/runs: results[0] has no status",
    ],
    [
      "a backfill whose progress is a string (the published schema's mistake)",
      cursorPage([{ id: "b", status: "Running", created_at: "x", progress: "50%" }]),
      (c: ServiceClient) => collect(backfillsApi(c).list(1, "e")),
      "GET batch_exports/e/backfills: results[0].progress is not an object or null (it is a string)",
    ],
    [
      "a backfill create answering the backfill object (as the schema claims)",
      { id: "b", status: "Starting" },
      (c: ServiceClient) => backfillsApi(c).start(1, "e", { start_at: "a", end_at: "b" }),
      "POST batch_exports/e/backfills: the answer has no backfill_id",
    ],
    [
      "pause answering the export",
      batchExport("e", { paused: "yes" }),
      (c: ServiceClient) => batchExportsApi(c).pause(1, "e"),
      "POST batch_exports/e/pause: paused is not true or false (it is a string)",
    ],
    [
      "an events page item without timestamp",
      { next: null, results: [{ id: "x", event: "$pageview" }] },
      (c: ServiceClient) => collect(c.events.list(1)),
      "GET events: results[0] has no timestamp",
    ],
    [
      "log entries as strings",
      { count: 1, next: null, results: ["INFO hello"] },
      (c: ServiceClient) => collect(logsApi(c).list(1, "e")),
      "GET batch_exports/e/logs: results[0] is not an object (it is a string)",
    ],
    [
      "a project without its organization",
      { id: 1, name: "p" },
      (c: ServiceClient) => c.organizations.getProject(1),
      "GET projects/1: the answer has no organization",
    ],
    [
      "features that are not a list",
      { id: "o", available_product_features: "tagging" },
      (c: ServiceClient) => c.organizations.get("o"),
      "GET organizations/o: available_product_features is not a list or null (it is a string)",
    ],
  ])("%s", async (_what, body, call, message) => {
    answer(body, 200);
    const error = await failure(() => call(client));
    expect(error.message).toBe(`unexpected answer from the service for ${message}`);
  });

  it("a created dashboard without an id is an error, not an object without identity", async () => {
    answer({ name: "x" }, 201);
    const error = await failure(() => dashboardsApi(client).create(1, { name: "x" }));
    expect(error.message).toBe(
      "unexpected answer from the service for POST dashboards: the answer has no id",
    );
    expect(error.status).toBe(201);
  });

  it("DELETE answers stay bodiless", async () => {
    server.setHandler((_req, res) => json(res, 204, undefined));
    await expect(batchExportsApi(client).delete(1, "e")).resolves.toBeUndefined();
    await expect(collaboratorsApi(client).remove(1, 2, "u")).resolves.toBeUndefined();
  });
});

describe("an answer too long to read", () => {
  it("is refused once it passes maxAnswerBytes, not buffered whole", async () => {
    const small = new ServiceClient({
      host: server.url,
      apiKey: KEY,
      maxAnswerBytes: 1_048_576,
      clock: { now: () => 0, sleep: async () => {} },
    });
    const many = Array.from({ length: 12_000 }, (_, i) => dashboard(i, { description: "x".repeat(200) }));
    answer(offsetPage(many));
    const error = await failure(() => dashboardsApi(small).listAll(1));
    expect(error.message).toBe(`${PREFIX}the answer is longer than 1 MB`);
    answer(offsetPage(many.slice(0, 100)));
    await expect(dashboardsApi(small).listAll(1)).resolves.toHaveLength(100);
    await small.close();
  });
});
