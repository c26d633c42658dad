/**
 * Generated activity for the default seed: batch export runs (hourly S3 for the last 48 hours with one
 * Failed and one Running, two older than the runs list's 7-day window, three daily Postgres runs), their
 * log entries, and 300 events over the last 7 days. Deterministic for a given `now`.
 */
import type { StoreData } from "./types.js";

export const S3_EXPORT_ID = "0190f1d2-7b4e-7c3a-9d1f-0000000e0001";
export const POSTGRES_EXPORT_ID = "0190f1d2-7b4e-7c3a-9d1f-0000000e0002";
/** The S3 export's run created about 10 days ago: outside every run action's default 7-day window. */
export const OLD_RUN_ID = "0190f1d2-7b4f-7c3a-9d1f-000000000031";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function uuid(prefix: string, n: number): string {
  return `0190f1d2-${prefix}-7c3a-9d1f-${n.toString(16).padStart(12, "0")}`;
}

/** Small deterministic PRNG so the sample data is the same on every start. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (Math.imul(a ^ (a >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    a ^= a >>> 13;
    return (a >>> 0) / 4294967296;
  };
}

export function runsAndLogs(now: number): Pick<StoreData, "runs" | "logs"> {
  const runs: StoreData["runs"] = [];
  const logs: StoreData["logs"] = [];
  const currentHour = Math.floor(now / HOUR) * HOUR;
  const add = (
    exportId: string,
    start: number,
    end: number,
    status: string,
    error: string | null,
    n: number,
  ) => {
    // A minute after the interval ends, but never in the future: in the first minute of an hour the
    // newest run would otherwise fall outside every list's default `before=now` window.
    const created = Math.min(end + 60_000, now - 2_000);
    const records = status === "Completed" ? 1000 + ((n * 7919) % 5000) : null;
    const id = uuid("7b4f", runs.length + 1);
    runs.push({
      id,
      batch_export: exportId,
      status,
      records_completed: records,
      records_failed: status === "Failed" ? 0 : null,
      latest_error: error,
      data_interval_start: new Date(start).toISOString(),
      data_interval_end: new Date(end).toISOString(),
      cursor: null,
      created_at: new Date(created).toISOString(),
      finished_at: status === "Running" ? null : new Date(created + 90_000).toISOString(),
      last_updated_at: new Date(created + 90_000).toISOString(),
      records_total_count: records,
      bytes_exported: records === null ? null : records * 480,
      backfill: null,
    });
    const log = (offset: number, level: string, message: string) =>
      logs.push({
        team_id: 12345,
        batch_export: exportId,
        run: id,
        timestamp: new Date(created + offset).toISOString(),
        level,
        message,
      });
    log(
      1000,
      "INFO",
      `Batch export for range ${new Date(start).toISOString()} - ${new Date(end).toISOString()} started`,
    );
    if (status === "Failed") log(60_000, "ERROR", `Batch export failed: ${error}`);
    else if (status === "Completed")
      log(60_000, "INFO", `Successfully finished exporting batch: ${records} records`);
  };
  // S3, hourly: the last 48 hours; the newest is still running, one failed five hours ago.
  for (let h = 48; h >= 1; h--) {
    const end = currentHour - (h - 1) * HOUR;
    const status = h === 1 ? "Running" : h === 5 ? "Failed" : "Completed";
    const error = h === 5 ? "NoSuchBucket: The specified bucket does not exist" : null;
    add(S3_EXPORT_ID, end - HOUR, end, status, error, h);
  }
  // Older than the runs list's default 7-day window.
  for (let d = 10; d >= 9; d--)
    add(S3_EXPORT_ID, currentHour - d * DAY - HOUR, currentHour - d * DAY, "Completed", null, d);
  // Postgres, daily, paused two days ago.
  const today = Math.floor(now / DAY) * DAY;
  for (let d = 5; d >= 3; d--)
    add(POSTGRES_EXPORT_ID, today - (d + 1) * DAY, today - d * DAY, "Completed", null, d);
  logs.push({
    team_id: 12345,
    batch_export: S3_EXPORT_ID,
    run: runs[2]?.id ?? "",
    timestamp: new Date(now - 40 * HOUR).toISOString(),
    level: "WARNING",
    message: "Retrying upload of part 3 after a timeout",
  });
  return { runs, logs };
}

export function sampleEvents(now: number): StoreData["events"] {
  const random = prng(12345);
  const names = [
    "$pageview",
    "$pageview",
    "$pageview",
    "$autocapture",
    "signed_up",
    "purchase",
    "$pageleave",
  ];
  const browsers = ["Chrome", "Firefox", "Safari"];
  const out: StoreData["events"] = [];
  for (let i = 0; i < 300; i++) {
    const event = names[Math.floor(random() * names.length)] ?? "$pageview";
    const person = 1 + Math.floor(random() * 20);
    const properties: Record<string, unknown> = {
      $browser: browsers[Math.floor(random() * browsers.length)],
      $os: random() < 0.5 ? "Mac OS X" : "Windows",
      $current_url: `https://app.example.com/${["home", "pricing", "docs", "settings"][i % 4]}`,
    };
    if (event === "purchase") properties.plan = random() < 0.5 ? "pro" : "team";
    if (person <= 5) properties.$email = `user${person}@example.com`;
    out.push({
      id: uuid("7b50", i + 1),
      team_id: i % 10 === 9 ? 12346 : 12345,
      distinct_id: `user-${person}`,
      person_id: uuid("7b51", person),
      event,
      timestamp: new Date(now - Math.floor(((i + random()) / 300) * 7 * DAY)).toISOString(),
      properties,
      elements_chain: event === "$autocapture" ? 'button.btn:text="Sign up"' : "",
    });
  }
  return out;
}
