import { OLD_RUN_ID } from "posthog-gitops-emulator";
import { describe, expect, it } from "vitest";
import { type RetryOptions, run as retry } from "../../src/commands/retry.js";
import { run as runs } from "../../src/commands/runs.js";
import { PROJECT_ENV, S3_EXPORT_ID, useEmulator } from "../support/emulator.js";
import { validJson } from "../support/valid-json.js";

const h = useEmulator({ env: PROJECT_ENV });
const S3 = "Events to S3";
const FAILED_RUN = "0190f1d2-7b4f-7c3a-9d1f-00000000002c"; // the seed's Failed run, five hours ago

async function runsJson(extra: Record<string, unknown> = {}) {
  const out = await h.run(runs, { args: [S3], format: "json", limit: "1000", ...extra });
  expect(out.code).toBe(0);
  return validJson("runs", out.stdout);
}

const posts = async () => (await h.requests()).filter((r) => r.method === "POST");

describe("runs", () => {
  it("lists runs newest first within the default 7 days, as a table or JSON", async () => {
    const doc = await runsJson();
    expect(doc.runs).toHaveLength(48); // the two older runs fall outside the window
    const created = doc.runs.map((r: { created_at: string }) => Date.parse(r.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(doc.export).toEqual({ project: 12345, id: S3_EXPORT_ID, name: S3, interval: "hour" });
    const text = await h.run(runs, { args: [S3], limit: "3" });
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^CREATED\s+STATUS\s+DATA INTERVAL\s+RECORDS\s+RUN ID\s+DETAIL$/);
    expect(lines[1]).toMatch(/Running/);
    expect(text.stderr).toBe(`3 runs of "${S3}" (--limit 3 reached)\n`);
  });

  it("filters by status (any case) and --since; follows cursor pages up to --limit", async () => {
    const failed = await runsJson({ status: "failed" });
    expect(failed.runs.map((r: { id: string }) => r.id)).toEqual([FAILED_RUN]);
    expect(failed.runs[0].latest_error).toContain("NoSuchBucket");
    expect((await runsJson({ since: "-30d" })).runs).toHaveLength(50);
    // The clock starts at 12:00 UTC: hourly runs created at 09:01, 10:01 and 11:01, and the newest one
    // (its interval ends at 12:00) two seconds before the seed was made; never the 46 others.
    const recent = (await runsJson({ since: "-3h" })).runs.length;
    expect(recent).toBe(4);
    // 150 more runs from a backfill: two cursor pages of 100.
    const start = new Date(Date.UTC(2026, 0, 1)).toISOString();
    const end = new Date(Date.UTC(2026, 0, 1) + 150 * 3_600_000).toISOString();
    await fetch(`${h.url}/api/projects/12345/batch_exports/${S3_EXPORT_ID}/backfills/`, {
      method: "POST",
      headers: { Authorization: `Bearer ${h.key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ start_at: start, end_at: end }),
    });
    await h.clearRequests();
    const paged = await runsJson({ limit: "120" });
    expect(paged.runs).toHaveLength(120);
    const lists = (await h.requests()).filter((r) => r.path.endsWith("/runs/"));
    expect(lists).toHaveLength(2);
    expect(lists[1]?.query).toContain("cursor=");
  });

  it("refuses a bad status, limit or time before sending anything", async () => {
    await h.clearRequests();
    for (const [options, message] of [
      [{ status: "Broken" }, "--status Broken is not a run status"],
      [{ limit: "0" }, "--limit must be a whole number from 1 to 100000"],
      [{ since: "2026-11-01T00:00:00" }, "--since 2026-11-01T00:00:00 has no timezone"],
      [{ since: "yesterday" }, "--since yesterday is not a time"],
    ] as const) {
      const out = await h.run(runs, { args: [S3], ...options });
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(message);
    }
    expect(await h.requests()).toEqual([]);
  });

  it("names close live exports when NAME matches none", async () => {
    const out = await h.run(runs, { args: ["events to s3"] });
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      'error: no batch export named "events to s3" in project 12345 (did you mean "Events to S3"?)\n',
    );
  });
});

describe("retry", () => {
  it("retries one run: a new run covering its interval appears", async () => {
    const before = await runsJson();
    const out = await h.run(retry, { args: [S3, FAILED_RUN], autoApprove: true });
    expect(out.code).toBe(0);
    // The newest service answers a run retry with the backfill's workflow id, not a UUID.
    expect(out.stdout).toMatch(
      new RegExp(`^retried run ${FAILED_RUN} \\(.+\\): backfill ${S3_EXPORT_ID}-Backfill-\\S+\\n$`),
    );
    const after = await runsJson();
    expect(after.runs).toHaveLength(before.runs.length + 1);
    const failed = before.runs.find((r: { id: string }) => r.id === FAILED_RUN);
    const added = after.runs[0];
    expect(added).toMatchObject({
      status: "Completed",
      data_interval_start: failed.data_interval_start,
      data_interval_end: failed.data_interval_end,
    });
    expect(added.backfill).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("retries failed runs since T once: a second run finds them already exported again", async () => {
    const first = await h.run(retry, { args: [S3], failed: true, since: "-1d", autoApprove: true });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`retried run ${FAILED_RUN}`);
    expect(first.stderr).toContain("1 of 1 run retried");
    await h.clearRequests();
    const second = await h.run(retry, { args: [S3], failed: true, since: "-1d", autoApprove: true });
    expect(second.code).toBe(0);
    // --since in the one human time format: UTC to the second, with how long ago.
    expect(second.stdout).toMatch(
      new RegExp(
        `^No failed runs of "${S3}" to retry since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ \\(24h ago\\)\\.\n$`,
      ),
    );
    expect(second.stderr).toContain("1 failed run was already exported again by a later run; skipped");
    expect(await posts()).toEqual([]);
  });

  it("without a terminal requires --auto-approve and sends nothing", async () => {
    await h.clearRequests();
    const out = await h.run(retry, { args: [S3, FAILED_RUN] });
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      "error: retry starts backfills: pass --auto-approve to confirm (no terminal to ask on)\n",
    );
    expect(await h.requests()).toEqual([]);
  });

  it("asks on a terminal: no sends nothing, yes retries", async () => {
    const questions: string[] = [];
    const declined = await h.run(
      retry,
      { args: [S3], failed: true, since: "-2d" },
      {
        io: {
          confirm: async (q) => {
            questions.push(q);
            return "no";
          },
        },
      },
    );
    expect(declined.code).toBe(1);
    expect(questions).toEqual([`Retry 1 run of "${S3}"?`]);
    expect(declined.stderr).toContain(`${FAILED_RUN}  Failed`);
    expect(await posts()).toEqual([]);
    const accepted = await h.run(retry, { args: [S3, FAILED_RUN] }, { io: { confirm: async () => "yes" } });
    expect(accepted.code).toBe(0);
    expect((await posts()).map((r) => r.path)).toEqual([
      `/api/projects/12345/batch_exports/${S3_EXPORT_ID}/runs/${FAILED_RUN}/retry/`,
    ]);
  });

  it("reports a refused retry in one line, exit 1", async () => {
    await h.faults({
      rules: [{ method: "POST", path: "/retry/?$", status: 403, times: 1 }],
    });
    const out = await h.run(retry, { args: [S3, FAILED_RUN], autoApprove: true });
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(new RegExp(`^error: run ${FAILED_RUN}: POST .*retry: 403`, "m"));
    const missing = await h.run(retry, {
      args: [S3, "0190f1d2-7b4f-7c3a-9d1f-0000000fffff"],
      autoApprove: true,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `error: no run 0190f1d2-7b4f-7c3a-9d1f-0000000fffff of batch export "${S3}" in project 12345\n`,
    );
  });

  it("retries a run older than the service's 7-day window: GET and retry widen it with ?after=", async () => {
    await h.clearRequests();
    const out = await h.run(retry, { args: [S3, OLD_RUN_ID], autoApprove: true });
    expect(out.stderr).not.toMatch(/error/);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(new RegExp(`^retried run ${OLD_RUN_ID} \\(.+\\): backfill `));
    const single = (await h.requests()).filter((r) => r.path.includes(`/runs/${OLD_RUN_ID}`));
    expect(single.map((r) => [r.method, r.status])).toEqual([
      ["GET", 200],
      ["POST", 201],
    ]);
    // The window starts at the export's creation: every run of it, however old.
    for (const r of single)
      expect(new URLSearchParams(r.query).get("after")).toBe("2025-04-01T12:00:00.000Z");
  });

  it("needs RUN_ID or --failed with --since", async () => {
    const cases: Array<[RetryOptions, string]> = [
      [{ args: [S3] }, "say which runs"],
      [{ args: [S3], failed: true }, "--failed needs --since"],
      [{ args: [S3, FAILED_RUN], failed: true, since: "-1d" }, "either RUN_ID or --failed"],
    ];
    for (const [options, message] of cases) {
      const out = await h.run(retry, { ...options, autoApprove: true });
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(message);
    }
  });
});
