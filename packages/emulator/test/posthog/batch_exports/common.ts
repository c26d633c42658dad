/**
 * The operations.py / fixtures.py helpers of PostHog's batch export API tests, over the emulator. The
 * integration-backed AwsS3 body stands for the inline-key `S3` bodies of older revisions (the newest
 * service refuses inline keys and the `S3` type; service-api.md §0).
 */
import { type Actor, assertStatus, projectPath, type World } from "../harness.js";

export const S3_CONFIG = {
  bucket_name: "my-production-s3-bucket",
  region: "us-east-1",
  prefix: "posthog-events/",
};

export function awsS3Integration(world: World, team = world.team): Promise<number> {
  return world.createIntegration(
    "aws-s3",
    { name: "prod-aws", aws_account_id: "123456789012" },
    { team, sensitive: { aws_access_key_id: "key", aws_secret_access_key: "secret" } },
  );
}

/** The body of the tests' "my-production-s3-bucket-destination" export in `team`. */
export async function s3BatchExportData(
  world: World,
  team = world.team,
  extra: Record<string, unknown> = {},
) {
  return {
    name: "my-production-s3-bucket-destination",
    destination: {
      type: "AwsS3",
      config: { ...S3_CONFIG },
      integration: await awsS3Integration(world, team),
    },
    interval: "hour",
    ...extra,
  };
}

export const exportsPath = (team: number, rest = "") =>
  projectPath(team, `batch_exports${rest ? `/${rest}` : ""}`);

export async function createBatchExportOk(world: World, team: number, body: unknown, actor?: Actor) {
  const response = await world.client(actor).post(exportsPath(team), body);
  assertStatus(response, 201);
  return response.body as Record<string, unknown> & { id: string; last_updated_at: string; paused: boolean };
}

export async function getBatchExportOk(world: World, team: number, id: string, actor?: Actor) {
  const response = await world.client(actor).get(exportsPath(team, id));
  assertStatus(response, 200);
  return response.body;
}

let sequence = 0;

/**
 * `create_batch_export(team, create_destination())`: an export written straight to the database, the
 * fixture's legacy inline-key `S3` destination (which the emulator, like the newest service, migrates to
 * AwsS3 with an integration). Returns its id.
 */
export async function createBatchExportOrm(world: World, team = world.team): Promise<string> {
  const id = `0190f1d2-0000-7000-8000-${String(0xb00 + sequence++).padStart(12, "0")}`;
  await world.insert("batch_exports", {
    id,
    team_id: team,
    name: "my-production-s3-bucket-destination",
    interval: "hour",
    destination: {
      type: "S3",
      config: { ...S3_CONFIG, aws_access_key_id: "abc123", aws_secret_access_key: "secret" },
    },
  });
  return id;
}

/** `create_run(batch_export, status, data_interval_start, data_interval_end, backfill)`: a run created now. */
export async function createRun(
  world: World,
  batchExport: string,
  status: string,
  start: string | null,
  end: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const id = `0190f1d2-0000-7000-8000-${String(0xc00 + sequence++).padStart(12, "0")}`;
  const now = new Date(world.now()).toISOString();
  await world.insert("runs", {
    id,
    batch_export: batchExport,
    status,
    data_interval_start: start,
    data_interval_end: end,
    created_at: now,
    last_updated_at: now,
    ...extra,
  });
  return id;
}

/** `create_backfill(team, batch_export, start_at, end_at, status, finished_at)`. */
export async function createBackfill(
  world: World,
  team: number,
  batchExport: string,
  start: string | null,
  end: string | null,
  status: string,
  finishedAt: string | null,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const id = `0190f1d2-0000-7000-8000-${String(0xd00 + sequence++).padStart(12, "0")}`;
  await world.insert("backfills", {
    id,
    team_id: team,
    batch_export: batchExport,
    start_at: start,
    end_at: end,
    status,
    finished_at: finishedAt,
    ...extra,
  });
  return id;
}
