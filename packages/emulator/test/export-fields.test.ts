/**
 * The newest batch export fields beyond the destination (service-api.md §0, §4): the schedule
 * (`timezone`, `offset_day`, `offset_hour` over `interval_offset`), `filters`, the HogQL model and its
 * keys, and the feature flags in front of `hogql` and the sub-hour intervals.
 */
import { describe, expect, it } from "vitest";
import { P, POSTGRES_EXPORT_ID, S3_EXPORT_ID, useEmulator } from "./support/harness.js";

const h = useEmulator();
const B = `${P}/batch_exports/`;

const noop = (extra: Record<string, unknown> = {}) => ({
  name: "Scheduled",
  interval: "day",
  destination: { type: "NoOp", config: {} },
  ...extra,
});
const error = (detail: string, attr: string | null, code = "invalid_input") => ({
  type: "validation_error",
  code,
  detail,
  attr,
});
const stored = async (id: string) =>
  (await h.control("GET", "state")).body.batch_exports.find((b: { id: string }) => b.id === id);

describe("schedule fields", () => {
  it("store timezone (null as UTC) and offsets as interval_offset, echoed in every response", async () => {
    const daily = await h.api("POST", B, noop({ timezone: "Europe/Berlin", offset_hour: 5 }));
    expect(daily.status).toBe(201);
    expect(daily.body).toMatchObject({ timezone: "Europe/Berlin", offset_day: null, offset_hour: 5 });
    expect((await stored(daily.body.id)).interval_offset).toBe(5 * 3600);
    const weekly = await h.api(
      "POST",
      B,
      noop({ interval: "week", offset_day: 2, offset_hour: 6, timezone: null }),
    );
    expect(weekly.body).toMatchObject({ timezone: "UTC", offset_day: 2, offset_hour: 6 });
    expect((await stored(weekly.body.id)).interval_offset).toBe(2 * 86_400 + 6 * 3600);
    const list = (await h.api("GET", B)).body.results;
    const shown = list.find((b: { id: string }) => b.id === weekly.body.id);
    expect([shown.offset_day, shown.offset_hour]).toEqual([2, 6]);
    // Defaults: week → 0/0, day → null/0, other intervals → null/null.
    const plainWeek = await h.api("POST", B, noop({ interval: "week" }));
    expect([plainWeek.body.offset_day, plainWeek.body.offset_hour]).toEqual([0, 0]);
    const hourly = await h.api("GET", `${B}${S3_EXPORT_ID}/`);
    expect([hourly.body.timezone, hourly.body.offset_day, hourly.body.offset_hour]).toEqual([
      "UTC",
      null,
      null,
    ]);
  });

  it("refuse zones the service does not know, and offsets of the wrong interval or range", async () => {
    const post = async (extra: Record<string, unknown>) => (await h.api("POST", B, noop(extra))).body;
    expect(await post({ timezone: "Mars/Olympus" })).toEqual(
      error('"Mars/Olympus" is not a valid choice.', "timezone", "invalid_choice"),
    );
    expect(await post({ timezone: "europe/berlin" })).toEqual(
      error('"europe/berlin" is not a valid choice.', "timezone", "invalid_choice"),
    );
    expect(await post({ offset_day: 1 })).toEqual(
      error("offset_day is not applicable for non-weekly intervals", "offset_day"),
    );
    expect(await post({ interval: "hour", offset_hour: 1 })).toEqual(
      error("offset_hour is not applicable for non-daily/weekly intervals", "offset_hour"),
    );
    expect(await post({ interval: "week", offset_day: 7 })).toEqual(
      error("Ensure this value is less than or equal to 6.", "offset_day", "max_value"),
    );
    expect(await post({ offset_hour: -1 })).toEqual(
      error("Ensure this value is greater than or equal to 0.", "offset_hour", "min_value"),
    );
    expect(await post({ offset_hour: 24 })).toEqual(
      error("Ensure this value is less than or equal to 23.", "offset_hour", "max_value"),
    );
    expect(await post({ offset_hour: "x" })).toEqual(error("A valid integer is required.", "offset_hour"));
    // The check reads the export's interval when the body has none.
    const res = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, { interval: "hour", offset_hour: 1 });
    expect(res.body).toEqual(
      error("offset_hour is not applicable for non-daily/weekly intervals", "offset_hour"),
    );
  });

  it("convert offsets only with interval in the same body: one weekly offset resets the other, PUT clears", async () => {
    const weekly = await h.api("POST", B, noop({ interval: "week", offset_day: 3, offset_hour: 6 }));
    const url = `${B}${weekly.body.id}/`;
    const onlyDay = await h.api("PATCH", url, { interval: "week", offset_day: 4 });
    expect([onlyDay.body.offset_day, onlyDay.body.offset_hour]).toEqual([4, 0]);
    const noOffsets = await h.api("PATCH", url, { interval: "week", name: "renamed" });
    expect([noOffsets.body.offset_day, noOffsets.body.offset_hour]).toEqual([4, 0]);
    const put = await h.api("PUT", url, noop({ interval: "week" }));
    expect([put.body.offset_day, put.body.offset_hour]).toEqual([0, 0]);
    expect((await stored(weekly.body.id)).interval_offset).toBeNull();
    const timezone = await h.api("PATCH", url, { timezone: "America/New_York" });
    expect(timezone.body.timezone).toBe("America/New_York");
    const hourly = await h.api("PATCH", url, { interval: "hour" });
    expect([hourly.body.offset_day, hourly.body.offset_hour]).toEqual([null, null]);
  });

  it("answer 500 to offsets PATCHed without interval, which the service cannot set [inferred]", async () => {
    const res = await h.api("PATCH", `${B}${POSTGRES_EXPORT_ID}/`, { offset_hour: 4 });
    expect(res.status).toBe(500);
    expect(res.body.type).toBe("server_error");
    expect((await h.api("GET", `${B}${POSTGRES_EXPORT_ID}/`)).body.offset_hour).toBe(0);
  });
});

describe("filters", () => {
  it("are accepted with the events model only", async () => {
    const filters = [{ key: "$browser", operator: "exact", type: "event", value: ["Firefox"] }];
    const ok = await h.api("POST", B, noop({ filters }));
    expect(ok.status).toBe(201);
    expect(ok.body.filters).toEqual(filters);
    const persons = await h.api("PATCH", `${B}${POSTGRES_EXPORT_ID}/`, { filters });
    expect(persons.body).toEqual(
      error("'filters' is only supported for 'events' not 'persons' model", "filters"),
    );
    expect((await h.api("PATCH", `${B}${POSTGRES_EXPORT_ID}/`, { filters: null })).status).toBe(200);
  });

  it.each([
    [{ key: "x" }, "'filters' should be an array of filters"],
    [["x"], "Each filter must be an object"],
    [
      [{ type: "event", data_interval_start: "2026-01-01" }],
      "'data_interval_start' and 'data_interval_end' are run attributes and not 'filters'. Trigger a backfill if you wish to manually control which periods to batch export.",
    ],
    [[{ key: "k", type: "cohort" }], "Each filter must have a 'type' of one of: 'event', 'hogql', 'person'"],
  ])("refuse %j", async (filters, detail) => {
    const res = await h.api("POST", B, noop({ filters }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(detail, "filters"));
  });
});

describe("the HogQL model", () => {
  const query = "SELECT event, distinct_id AS who FROM events WHERE timestamp >= {data_interval_start}";

  it("is behind the hogql-batch-exports flag", async () => {
    const res = await h.api("POST", B, noop({ model: "hogql", hogql_query: query }));
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("HogQL batch exports are not enabled for this team.");
  });

  it("needs a usable query whose keys are output columns", async () => {
    await h.reseed((s) => {
      s.service.feature_flags["hogql-batch-exports"] = true;
    });
    const post = async (extra: Record<string, unknown>) =>
      (await h.api("POST", B, noop({ model: "hogql", ...extra }))).body;
    expect(await post({})).toEqual(error("'hogql_query' is required when 'model' is 'hogql'", "hogql_query"));
    expect(await post({ hogql_query: "SELECT event, count() FROM events" })).toEqual(
      error(
        "Every column in the SELECT clause must be a field or have an alias (e.g. `count() AS event_count`)",
        "hogql_query",
      ),
    );
    expect(await post({ hogql_query: "SELECT event FROM events WHERE team = {team_id}" })).toEqual(
      error(
        "Unknown placeholder '{team_id}'. Only {data_interval_start} and {data_interval_end} are supported in batch export queries",
        "hogql_query",
      ),
    );
    expect(await post({ hogql_query: query, incremental_mode: "MERGE" })).toEqual(
      error("'primary_key' is required when 'incremental_mode' is 'MERGE'", "primary_key"),
    );
    expect(await post({ hogql_query: query, primary_key: ["uuid", "who"] })).toEqual(
      error("'primary_key' contains columns that are not present in the query: uuid", "primary_key"),
    );
    expect(await post({ hogql_query: query, version_key: [] })).toEqual(
      error("This list may not be empty.", "version_key", "empty"),
    );
    const ok = await h.api(
      "POST",
      B,
      noop({ model: "hogql", hogql_query: query, primary_key: ["who"], incremental_mode: "MERGE" }),
    );
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      model: "hogql",
      hogql_query: query,
      primary_key: ["who"],
      incremental_mode: "MERGE",
    });
  });

  it("keeps hogql_query and the HogQL keys away from other models", async () => {
    const events = await h.api("POST", B, noop({ hogql_query: "SELECT event FROM events" }));
    expect(events.body).toEqual(
      error("'hogql_query' is only supported for 'hogql' not 'events' model", "hogql_query"),
    );
    const key = await h.api("POST", B, noop({ primary_key: ["event"] }));
    expect(key.body).toEqual(
      error("'primary_key' is only supported for 'hogql' not 'events' model", "primary_key"),
    );
    const modifiers = await h.api("PATCH", `${B}${POSTGRES_EXPORT_ID}/`, { hogql_modifiers: {} });
    expect(modifiers.body).toEqual(
      error("'hogql_modifiers' is only supported for 'hogql' not 'persons' model", "hogql_modifiers"),
    );
  });

  it("keeps the older events-query path for teams that already own an export with a schema", async () => {
    await h.reseed((s) => {
      const first = s.batch_exports[0];
      if (first) first.schema = { fields: [], values: {} };
    });
    const ok = await h.api("POST", B, noop({ hogql_query: "SELECT event FROM events" }));
    expect(ok.status).toBe(201);
    const other = await h.api("POST", B, noop({ hogql_query: "SELECT id FROM persons" }));
    expect(other.body).toEqual(error("Query must only SELECT FROM events", null));
  });
});

describe("sub-hour intervals", () => {
  it("are behind the high-frequency-batch-exports flag, even when the interval does not change", async () => {
    const res = await h.api("POST", B, noop({ interval: "every 5 minutes" }));
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("Higher frequency batch exports are not enabled for this team.");
    await h.reseed((s) => {
      const first = s.batch_exports.find((b) => b.id === S3_EXPORT_ID);
      if (first) first.interval = "every 5 minutes";
    });
    const same = await h.api("PATCH", `${B}${S3_EXPORT_ID}/`, { interval: "every 5 minutes" });
    expect(same.status).toBe(403);
    await h.reseed((s) => {
      s.service.feature_flags["high-frequency-batch-exports"] = true;
    });
    const ok = await h.api("POST", B, noop({ interval: "every 15 minutes" }));
    expect(ok.status).toBe(201);
    expect([ok.body.offset_day, ok.body.offset_hour]).toEqual([null, null]);
  });
});
