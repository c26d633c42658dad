/**
 * Port of PostHog's products/batch_exports/backend/tests/api/test_create_azure_blob.py (revision
 * 19194eff). The Temporal schedule assertion (workflow `azure-blob-export`) has no counterpart in the
 * emulator.
 */
import { describe, expect, it } from "vitest";
import { assertStatus, citing, projectPath, usePostHog } from "../harness.js";

const cite = citing("products/batch_exports/backend/tests/api/test_create_azure_blob.py");
const { world } = usePostHog();

describe("test_create_azure_blob.py", () => {
  it(cite("test_creating_azure_blob_batch_export_using_integration"), async () => {
    const integration = await world.createIntegration(
      "azure-blob",
      {},
      { sensitive: { connection_string: "x" } },
    );
    const response = await world.client().post(projectPath(world.team, "batch_exports"), {
      name: "my-azure-blob-destination",
      destination: {
        type: "AzureBlob",
        config: { container_name: "test-container", prefix: "test-prefix/" },
        integration,
      },
      interval: "hour",
    });
    assertStatus(response, 201);
    expect(response.body.destination.type).toBe("AzureBlob");
    expect(response.body.destination.config.container_name).toBe("test-container");
    expect(response.body.destination.config.prefix).toBe("test-prefix/");
    expect(response.body.interval).toBe("hour");
  });
});
