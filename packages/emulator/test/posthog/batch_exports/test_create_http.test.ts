/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create_http.py (revision ce5def3b):
 * HTTP exports (migrations) only export events.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create_http.py");
const { world } = usePostHog();

describe("test_create_http.py", () => {
  const cases: Array<[string | null, number, string | null]> = [
    ["events", 201, null],
    [null, 201, null],
    ["persons", 400, "HTTP batch exports only support the events model"],
  ];
  it.each(cases)(
    cite("test_creating_http_batch_export_only_allows_events_model", "%s"),
    async (model, expectedStatus, expectedError) => {
      const body: Record<string, unknown> = {
        name: "my-http-destination",
        destination: {
          type: "HTTP",
          config: { url: "https://us.i.posthog.com/batch/", token: "secret-token" },
        },
        interval: "hour",
      };
      if (model !== null) body.model = model;
      const response = await world.client().post(projectPath(world.team, "batch_exports"), body);
      assertStatus(response, expectedStatus);
      if (expectedError) expect(response.body.detail).toBe(expectedError);
    },
  );
});
