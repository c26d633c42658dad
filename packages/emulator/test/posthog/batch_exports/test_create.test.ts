/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create.py (revision 1ea05ce0):
 * generic, cross-destination batch export creation. Set-up from the emulator's world (harness.ts):
 * `conftest.py`'s `aws_s3_integration` / `s3_compatible_integration` are integrations of the team,
 * `posthoganalytics.feature_enabled` patches are the seed's feature flags. Assertions on the Temporal
 * schedule (jitter, calendar specs, encoded workflow inputs) have no counterpart in the emulator, which
 * runs no scheduler: they are left out, every assertion on the HTTP answer and on the stored export
 * (read from the emulator's state, like `BatchExport.objects.get`) is kept.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, newerSource, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create.py");
const { world } = usePostHog();

const exportsPath = (team: number) => projectPath(team, "batch_exports");

async function awsS3Integration(team = world.team) {
  return world.createIntegration(
    "aws-s3",
    { name: "prod-aws", aws_account_id: "123456789012" },
    { team, sensitive: { aws_access_key_id: "key", aws_secret_access_key: "secret" } },
  );
}

async function s3BatchExportData() {
  return {
    name: "my-production-s3-bucket-destination",
    destination: {
      type: "AwsS3",
      integration: await awsS3Integration(),
      config: { bucket_name: "my-production-s3-bucket", region: "us-east-1", prefix: "posthog-events/" },
    },
    interval: "hour",
  };
}

/** The `hogql_batch_export_data` fixture is not in the stored revision of conftest.py: an equivalent body. */
const HOGQL_QUERY =
  "SELECT event AS event, uuid AS uuid FROM events WHERE timestamp >= {data_interval_start} AND timestamp < {data_interval_end}";

async function hogqlBatchExportData() {
  return { ...(await s3BatchExportData()), model: "hogql", hogql_query: HOGQL_QUERY };
}

async function enableFlag(flag: string) {
  await world.edit((s) => {
    (s.service.feature_flags as Record<string, boolean>)[flag] = true;
  });
}

describe("test_create.py", () => {
  it(cite("test_create_batch_export_with_interval_schedule"), async () => {
    const integration = await world.createIntegration(
      "s3-compatible",
      { name: "my-r2", endpoint_url: "https://account.r2.cloudflarestorage.com" },
      { sensitive: { aws_access_key_id: "key", aws_secret_access_key: "secret" } },
    );
    const otherUser = await world.createUser("other@example.com");
    const destination = {
      type: "S3Compatible",
      config: {
        bucket_name: "my-production-s3-bucket",
        region: "us-east-1",
        prefix: "posthog-events/",
        use_virtual_style_addressing: true,
        legacy_parquet_extension: false,
      },
      integration,
    };
    const body = {
      name: "my-production-s3-bucket-destination",
      destination,
      interval: "hour",
      last_modified_by: otherUser.id,
    };
    const response = await world.client().post(exportsPath(world.team), body);
    assertStatus(response, 201);
    expect(response.body.destination).toEqual(destination);
    expect({ name: response.body.name, interval: response.body.interval }).toEqual({
      name: "my-production-s3-bucket-destination",
      interval: "hour",
    });
  });

  // (interval, timezone, offset_day, offset_hour, expected_interval_offset)
  const scheduleCases: Array<[string, string | null, number | null, number | null, number | null]> = [
    ["every 5 minutes", null, null, null, null],
    ["hour", "UTC", null, null, null],
    ["hour", "invalid", null, null, null],
    ["hour", "US/Pacific", null, null, null],
    ["hour", "US/Pacific", null, 2, null],
    ["day", "US/Pacific", null, null, null],
    ["day", "US/Pacific", null, 0, 0],
    ["day", "Asia/Kathmandu", null, 2, 7200],
    ["day", "Asia/Kathmandu", null, 24, null],
    ["day", "Asia/Kathmandu", 1, 6, null],
    ["week", null, null, null, null],
    ["week", "Asia/Kathmandu", null, null, null],
    ["week", "Asia/Kathmandu", 0, 0, 0],
    ["week", "Europe/Berlin", 1, 2, 93600],
    ["week", "Europe/Berlin", 7, 2, null],
  ];
  it.each(scheduleCases)(
    cite(
      "test_create_batch_export_with_different_intervals_timezones_and_interval_offsets",
      "%s-%s-%s-%s-%s",
    ),
    async (interval, timezone, offsetDay, offsetHour, expectedIntervalOffset) => {
      // A team whose own time zone differs from the export's (Asia/Seoul in PostHog's test): the
      // emulator's projects have no time zone, which is the point the test makes (it has no effect).
      const team = await world.createTeam();
      const integration = await awsS3Integration(team);
      const body: Record<string, unknown> = {
        name: "my-production-s3-bucket-destination",
        destination: {
          type: "AwsS3",
          config: { bucket_name: "my-production-s3-bucket", region: "us-east-1", prefix: "posthog-events/" },
          integration,
        },
        interval,
        timezone,
      };
      if (offsetHour !== null) body.offset_hour = offsetHour;
      if (offsetDay !== null) body.offset_day = offsetDay;
      await enableFlag("high-frequency-batch-exports");
      const response = await world.client().post(exportsPath(team), body);

      let expectError = false;
      if (offsetDay !== null && offsetDay > 6) expectError = true;
      if (offsetHour !== null && offsetHour > 23) expectError = true;
      if (interval !== "day" && interval !== "week" && (offsetDay !== null || offsetHour !== null))
        expectError = true;
      else if (interval === "day" && offsetDay !== null) expectError = true;
      else if (timezone === "invalid") expectError = true;
      if (expectError) {
        assertStatus(response, 400);
        return;
      }
      assertStatus(response, 201);
      const data = response.body;
      const expectedTimezone = timezone ?? "UTC";
      const stored = (await world.state()).batch_exports.find((b) => b.id === data.id);
      expect(stored?.timezone).toBe(expectedTimezone);
      expect(stored?.interval_offset).toBe(expectedIntervalOffset);
      if (interval === "day") {
        expect(data.offset_hour).toBe(offsetHour ?? 0);
      } else if (interval === "week") {
        expect(data.offset_day).toBe(offsetDay ?? 0);
        expect(data.offset_hour).toBe(offsetHour ?? 0);
      }
    },
  );

  it(cite("test_cannot_create_a_batch_export_for_another_organization"), async () => {
    await world.createTeam();
    const anotherOrganization = await world.createOrganization("Another Test Org");
    const anotherTeam = await world.createTeam(anotherOrganization);
    const response = await world.client().post(exportsPath(anotherTeam), {
      name: "my-production-s3-bucket-destination",
      destination: {
        type: "AwsS3",
        config: { bucket_name: "my-production-s3-bucket", region: "us-east-1", prefix: "posthog-events/" },
      },
      interval: "hour",
    });
    assertStatus(response, 403);
  });

  const foreignCases: Array<[string, string, Record<string, unknown>]> = [
    ["AwsS3", "aws-s3", { bucket_name: "b", region: "us-east-1", prefix: "p/" }],
    ["Databricks", "databricks", { http_path: "p", catalog: "c", schema: "s", table_name: "t" }],
    ["Snowflake", "snowflake", { database: "d", warehouse: "w", schema: "s" }],
  ];
  it.each(foreignCases)(
    cite("test_cannot_create_batch_export_with_integration_from_another_team", "%s"),
    async (destinationType, kind, config) => {
      const otherTeam = await world.createTeam();
      const foreign = await world.createIntegration(kind, {}, { team: otherTeam, sensitive: {} });
      const response = await world.client().post(exportsPath(world.team), {
        name: "my-export",
        interval: "hour",
        destination: { type: destinationType, config, integration: foreign },
      });
      assertStatus(response, 400);
      expect(response.body.attr).toBe("destination__integration");
      expect(response.body.code).toBe("does_not_exist");
    },
  );

  it(cite("test_cannot_create_a_batch_export_with_higher_frequencies_if_not_enabled"), async () => {
    // `feature_enabled` patched to False: the seed's flag stays off (the call assertion has no counterpart).
    const body = { ...(await s3BatchExportData()), interval: "every 5 minutes" };
    const response = await world.client().post(exportsPath(world.team), body);
    assertStatus(response, 403);
  });

  it(
    newerSource(
      cite("test_create_batch_export_with_custom_schema"),
      "products/batch_exports/backend/presentation/views/batch_export/exports.py `validate` (hogql_query on the events model)",
    ),
    async () => {
      // Settled from the newest source (presentation/views/batch_export/exports.py, `validate`): an
      // events-model export may carry `hogql_query` only in a team that already owns an export with a
      // compiled `schema`; this test's team owns none, so the newest service refuses what the test (written
      // for the older rule) expects to create with a compiled schema. See service-api.md §11.2.
      const body = {
        ...(await s3BatchExportData()),
        hogql_query:
          "\nSELECT\n  event,\n  team_id AS my_team,\n  properties,\n  properties.$browser AS browser,\n  properties.custom AS custom,\n  person_id\nFROM events\n",
      };
      const response = await world.client().post(exportsPath(world.team), body);
      assertStatus(response, 400);
      expect(response.body).toEqual({
        type: "validation_error",
        code: "invalid_input",
        detail: "'hogql_query' is only supported for 'hogql' not 'events' model",
        attr: "hogql_query",
      });
    },
  );

  const invalidQueries: Array<[string, string]> = [
    ["SELECT", "Failed to parse query"],
    ["SELECT event,, FROM events", "Failed to parse query"],
    ["SELECT unknown_field FROM events", "Invalid HogQL query: Unable to resolve field: unknown_field"],
    [
      "SELECT event, persons.id FROM events LEFT JOIN persons ON events.person_id = persons.id",
      "JOINs are not supported",
    ],
    ["SELECT event FROM events UNION ALL SELECT event FROM events", "UNIONs are not supported"],
    ["WITH cte AS (SELECT event FROM events) SELECT event FROM cte", "CTEs are not supported"],
    ["SELECT event FROM (SELECT event FROM events)", "Subqueries are not supported"],
    [
      "SELECT event FROM (SELECT event FROM events UNION ALL SELECT event FROM events)",
      "Subqueries are not supported",
    ],
    [
      "SELECT uuid, (SELECT event FROM events LIMIT 1) AS leaked FROM events",
      "Subqueries in SELECT expressions are not supported",
    ],
    [
      "SELECT coalesce((SELECT uuid FROM events LIMIT 1), uuid) AS foo FROM events",
      "Subqueries in SELECT expressions are not supported",
    ],
    [
      "SELECT event, $session_id FROM events",
      "Batch exports cannot read these fields: $session_id. Supported fields are: created_at, distinct_id, elements_chain, event, person_id, person_properties, properties, team_id, timestamp, uuid.",
    ],
    [
      "SELECT event, person.created_at FROM events",
      "Batch exports cannot read these fields: person_created_at. Supported fields are: created_at, distinct_id, elements_chain, event, person_id, person_properties, properties, team_id, timestamp, uuid.",
    ],
  ];
  it.each(invalidQueries)(
    cite("test_create_batch_export_fails_with_invalid_query", "%s"),
    async (invalidQuery, expectedErrorMessage) => {
      // Set-up adapted to the newest source: the events-model query path runs only for a team that
      // already owns an export with a compiled schema (exports.py `validate`); such an export is seeded.
      await world.insert("batch_exports", {
        team_id: world.team,
        name: "grandfathered",
        destination: { type: "NoOp", config: {} },
        schema: { fields: [{ expression: "events.event", alias: "event" }], values: {} },
      });
      const body = { ...(await s3BatchExportData()), hogql_query: invalidQuery };
      const response = await world.client().post(exportsPath(world.team), body);
      assertStatus(response, 400);
      expect(response.body.detail).toBe(expectedErrorMessage);
    },
  );

  it(cite("test_create_batch_export_with_hogql_model"), async () => {
    await enableFlag("hogql-batch-exports");
    const otherUser = await world.createUser("other@example.com");
    const data = await hogqlBatchExportData();
    const response = await world
      .client()
      .post(exportsPath(world.team), { ...data, last_modified_by: otherUser.id, user_id: otherUser.id });
    assertStatus(response, 201);
    expect(response.body.model).toBe("hogql");
    expect(response.body.hogql_query).toBe(data.hogql_query);
    expect(response.body.schema).toBeNull();
    const listed = await world.client().get(exportsPath(world.team));
    assertStatus(listed, 200);
    expect(listed.body.results.map((e: { hogql_query: string }) => e.hogql_query)).toEqual([
      data.hogql_query,
    ]);
  });

  for (const accessLevel of ["viewer", "none"]) {
    it.skip(`${cite("test_create_batch_export_with_hogql_model_allows_query_without_placeholders", accessLevel)} (skipped: data warehouse tables and their per-table access controls are not modelled by the emulator)`, () => {});
  }

  const hogqlInvalid: Array<[string, Record<string, unknown>, string, string, string?]> = [
    [
      "unknown-placeholder",
      { hogql_query: "SELECT event AS event FROM events WHERE event = {unknown_placeholder}" },
      "hogql_query",
      "Unknown placeholder '{unknown_placeholder}'. Only {data_interval_start} and {data_interval_end} are supported in batch export queries",
    ],
    [
      "filters-placeholder",
      { hogql_query: "SELECT event AS event FROM events WHERE {filters}" },
      "hogql_query",
      "Unsupported placeholder. Only {data_interval_start} and {data_interval_end} are supported in batch export queries",
    ],
    [
      "missing-hogql-query",
      { hogql_query: null },
      "hogql_query",
      "'hogql_query' is required when 'model' is 'hogql'",
    ],
    [
      "unaliased-column",
      { hogql_query: "SELECT count() FROM events" },
      "hogql_query",
      "Every column in the SELECT clause must be a field or have an alias (e.g. `count() AS event_count`)",
    ],
    [
      "filters",
      { filters: [{ key: "$browser", operator: "exact", type: "event", value: ["Firefox"] }] },
      "filters",
      // Settled from the newest source (exports.py `validate` → `_validate_attribute_only_supported_for_model`):
      // the test's revision expected "'filters' are not supported when 'model' is 'hogql'", the wording of
      // an older `_validate_hogql`.
      "'filters' is only supported for 'events' not 'hogql' model",
      "products/batch_exports/backend/presentation/views/batch_export/exports.py `validate` → `_validate_attribute_only_supported_for_model`",
    ],
  ];
  for (const [id, overrides, expectedAttr, expectedErrorMessage, newer] of hogqlInvalid) {
    const title = cite("test_create_batch_export_with_hogql_model_fails_with_invalid_request", id);
    it(newer ? newerSource(title, newer) : title, async () => {
      await enableFlag("hogql-batch-exports");
      const response = await world
        .client()
        .post(exportsPath(world.team), { ...(await hogqlBatchExportData()), ...overrides });
      assertStatus(response, 400);
      expect(response.body.attr).toBe(expectedAttr);
      expect(String(response.body.detail).startsWith(expectedErrorMessage)).toBe(true);
      expect((await world.state()).batch_exports).toHaveLength(0);
    });
  }

  it(cite("test_cannot_create_batch_export_with_hogql_model_if_not_enabled"), async () => {
    const response = await world.client().post(exportsPath(world.team), await hogqlBatchExportData());
    assertStatus(response, 403);
    expect((await world.state()).batch_exports).toHaveLength(0);
  });

  const invalidConfigs: Array<[string, Record<string, unknown>, string]> = [
    [
      "Snowflake",
      { database: "my-db", warehouse: "COMPUTE_WH", schema: "public", table_name: 2 },
      "invalid type: got 'int', expected 'str'",
    ],
    [
      "AwsS3",
      {
        bucket_name: "my-s3-bucket",
        region: "us-east-1",
        prefix: "posthog-events/",
        hello: 123,
        hello2: 123,
      },
      "unknown field/s: 'hello', 'hello2'",
    ],
    [
      "Postgres",
      {
        user: "test",
        password: "password",
        host: "localhost",
        database: "db",
        schema: null,
        table_name: "test",
      },
      "invalid type: got 'NoneType', expected 'str'",
    ],
    [
      "BigQuery",
      {
        project_id: "test",
        private_key: "pkey",
        private_key_id: "pkey_id",
        token_uri: "token",
        client_email: "email",
      },
      "missing required field: 'dataset_id'",
    ],
  ];
  it.each(invalidConfigs)(
    cite("test_create_batch_export_with_invalid_config", "%s"),
    async (type, config, expectedErrorMessage) => {
      const response = await world.client().post(exportsPath(world.team), {
        name: "destination",
        destination: { type, config },
        interval: "hour",
      });
      assertStatus(response, 400);
      expect(response.body.detail).toContain(expectedErrorMessage);
    },
  );

  const filterCases: Array<[string, unknown, number, string | null]> = [
    ["dict", { filters: { filter_something: 123 } }, 400, "should be an array"],
    ["none", null, 201, null],
    ["empty", [], 201, null],
    ["interval", [{ data_interval_start: "2025-01-01" }], 400, "not 'filters'. Trigger a backfill"],
    ["strings", ["$pageview"], 400, "must be an object"],
    ["no-type", [{ key: "$browser", operator: "exact" }], 400, "must have a 'type'"],
    ["event", [{ key: "$browser", operator: "exact", type: "event", value: ["Firefox"] }], 201, null],
  ];
  it.each(filterCases)(
    cite("test_creating_batch_export_with_filters", "%s"),
    async (_id, filters, expectedStatus, expectedError) => {
      const response = await world.client().post(exportsPath(world.team), {
        name: "my-destination",
        destination: {
          type: "AwsS3",
          integration: await awsS3Integration(),
          config: { bucket_name: "my-s3-bucket", region: "us-east-1", prefix: "posthog-events/" },
        },
        interval: "hour",
        model: "events",
        filters,
      });
      assertStatus(response, expectedStatus);
      if (expectedError) expect(response.body.detail).toContain(expectedError);
    },
  );
});
