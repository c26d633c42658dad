import { OLD_RUN_ID } from "posthog-gitops-emulator";
import { describe, expect, it } from "vitest";
import { run as events } from "../../src/commands/events.js";
import { run as logs } from "../../src/commands/logs.js";
import { type PartialState, PROJECT_ENV, S3_EXPORT_ID, useEmulator } from "../support/emulator.js";
import { validJson } from "../support/valid-json.js";

const h = useEmulator({ env: PROJECT_ENV });
const S3 = "Events to S3";
const FAILED_RUN = "0190f1d2-7b4f-7c3a-9d1f-00000000002c";

describe("logs", () => {
  it("filters by level on the service, newest first", async () => {
    await h.clearRequests();
    const out = await h.run(logs, { args: [S3], level: "error", format: "json" });
    expect(out.code).toBe(0);
    const doc = validJson("logs", out.stdout);
    expect(doc.entries).toHaveLength(1);
    expect(doc.entries[0]).toMatchObject({ level: "ERROR", instance_id: FAILED_RUN });
    expect(doc.entries[0].message).toContain("NoSuchBucket");
    expect((await h.requests()).find((r) => r.path.endsWith("/logs/"))?.query).toContain("level=ERROR");
    const several = validJson(
      "logs",
      (await h.run(logs, { args: [S3], level: "WARNING,error", format: "json" })).stdout,
    );
    expect(several.entries.map((e: { level: string }) => e.level).sort()).toEqual(["ERROR", "WARNING"]);
    const all = validJson("logs", (await h.run(logs, { args: [S3], limit: "500", format: "json" })).stdout);
    const times = all.entries.map((e: { timestamp: string }) => e.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.entries.length).toBeGreaterThan(90);
  });

  it("shows one run's entries as lines and stops at --limit", async () => {
    const out = await h.run(logs, { args: [S3], run: FAILED_RUN });
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\S+Z \(\S+ ago\) {2}ERROR {2}Batch export failed: NoSuchBucket/);
    expect(lines[1]).toMatch(/^\S+Z \(\S+ ago\) {2}INFO {3}Batch export for range/);
    const limited = await h.run(logs, { args: [S3], limit: "3" });
    expect(limited.stdout.trimEnd().split("\n")).toHaveLength(3);
    expect(limited.stderr).toBe(`3 log entries of "${S3}" (--limit 3 reached: older entries may exist)\n`);
    const bad = await h.run(logs, { args: [S3], level: "fatal" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      "error: --level fatal is not a log level: use one of DEBUG, LOG, INFO, WARNING, ERROR\n",
    );
  });
});

describe("logs of one run on the newest service", () => {
  it("reads the run's entries through the export logs (the run-logs route answers 500), however old the run", async () => {
    await h.clearRequests();
    const out = await h.run(logs, { args: [S3], run: OLD_RUN_ID, format: "json" });
    expect(out.stderr).not.toMatch(/error/);
    expect(out.code).toBe(0);
    const doc = validJson("logs", out.stdout);
    expect(doc.entries.map((e: { level: string }) => e.level)).toEqual(["INFO", "INFO"]);
    expect(doc.entries.every((e: { instance_id: string }) => e.instance_id === OLD_RUN_ID)).toBe(true);
    // After the name lookup (the exports list): the run, then the export's logs of that run.
    const sent = (await h.requests()).filter((r) => r.path.includes(`${S3_EXPORT_ID}/`));
    expect(sent.map((r) => [r.method, r.path.replace(/.*batch_exports\/[^/]+\//, ""), r.status])).toEqual([
      ["GET", `runs/${OLD_RUN_ID}/`, 200],
      ["GET", "logs/", 200],
    ]);
    expect(new URLSearchParams(sent[0]?.query).get("after")).toBe("2025-04-01T12:00:00.000Z");
    expect(new URLSearchParams(sent[1]?.query).get("instance_id")).toBe(OLD_RUN_ID);
    expect(sent.some((r) => r.path.includes("/runs/") && r.path.endsWith("/logs/"))).toBe(false);
  });

  it("names a run the export does not have", async () => {
    const out = await h.run(logs, { args: [S3], run: "0190f1d2-7b4f-7c3a-9d1f-0000000fffff" });
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(
      `error: no run 0190f1d2-7b4f-7c3a-9d1f-0000000fffff of batch export "${S3}" in project 12345\n`,
    );
  });
});

describe("logs past the service's 500 entries a request", () => {
  /** `n` entries of the S3 export, one second apart, `shared` of the oldest on one timestamp. */
  const addEntries = (n: number, shared = 1) =>
    h.reseed<PartialState>((state) => {
      const base = Date.parse("2026-11-01T00:00:00.000Z");
      for (let i = 0; i < n; i++) {
        const at = i < shared ? base : base + (i - shared + 1) * 1000;
        state.logs?.push({
          team_id: 12345,
          batch_export: S3_EXPORT_ID,
          run: FAILED_RUN,
          timestamp: new Date(at).toISOString(),
          level: "DEBUG",
          message: `entry ${i}`,
        });
      }
    });
  const debug = (limit: string) => h.run(logs, { args: [S3], level: "debug", limit, format: "json" });

  it("pages back with before= when --limit asks for more, keeping entries that share a timestamp", async () => {
    await addEntries(1200, 3);
    await h.clearRequests();
    const out = await debug("1100");
    expect(out.code).toBe(0);
    const entries = validJson("logs", out.stdout).entries;
    expect(entries).toHaveLength(1100);
    expect(new Set(entries.map((e: { message: string }) => e.message)).size).toBe(1100);
    const times = entries.map((e: { timestamp: string }) => e.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    expect(out.stderr).toBe(`1100 log entries of "${S3}" (--limit 1100 reached: older entries may exist)\n`);
    const reads = (await h.requests()).filter((r) => r.path.endsWith("/logs/"));
    expect(reads).toHaveLength(3);
    expect(reads.every((r) => new URLSearchParams(r.query).get("limit") === "500")).toBe(true);
    expect(new URLSearchParams(reads[1]?.query).get("before")).toBeTruthy();

    const all = await debug("5000");
    expect(validJson("logs", all.stdout).entries).toHaveLength(1200);
    expect(all.stderr).toBe(`1200 log entries of "${S3}"\n`);
  });

  it("says where output is cut when over 500 entries share one timestamp", async () => {
    await addEntries(700, 600);
    const out = await debug("1000");
    expect(out.code).toBe(0);
    expect(validJson("logs", out.stdout).entries).toHaveLength(600);
    expect(out.stderr).toMatch(
      /warning: over 500 entries share the timestamp 2026-11-01T00:00:00Z \(\d+d ago\), which the service cannot page past: older entries are not shown\n$/,
    );
  });
});

describe("events", () => {
  it("--where becomes an exact property filter; CSV has one row per event", async () => {
    await h.clearRequests();
    const out = await h.run(events, {
      where: ["$browser=Chrome", "$os=Mac OS X"],
      limit: "1000",
      format: "csv",
    });
    expect(out.code).toBe(0);
    const rows = out.stdout.trimEnd().split("\r\n");
    expect(rows[0]).toBe("id,event,timestamp,distinct_id,properties");
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows.slice(1)) {
      expect(row).toMatch(/^[0-9a-f-]{36},[^,]+,\S+,user-\d+,"\{.*\}"$/);
      const props = JSON.parse(row.slice(row.indexOf(',"{') + 2, -1).replace(/""/g, '"'));
      expect(props).toMatchObject({ $browser: "Chrome", $os: "Mac OS X" });
    }
    const query = new URLSearchParams((await h.requests())[0]?.query);
    expect(JSON.parse(query.get("properties") ?? "")).toEqual([
      { key: "$browser", value: "Chrome", operator: "exact", type: "event" },
      { key: "$os", value: "Mac OS X", operator: "exact", type: "event" },
    ]);
  });

  it("JSON follows schemas/events.schema.json; filters by event and time, newest first", async () => {
    const out = await h.run(events, { event: "purchase", after: "-3d", where: "plan=pro", format: "json" });
    expect(out.code).toBe(0);
    const doc = validJson("events", out.stdout);
    expect(doc.events.length).toBeGreaterThan(0);
    const cutoff = h.clock.now() - 3 * 86_400_000;
    for (const e of doc.events) {
      expect(e.event).toBe("purchase");
      expect(e.properties.plan).toBe("pro");
      expect(Date.parse(e.timestamp)).toBeGreaterThan(cutoff);
    }
    const times = doc.events.map((e: { timestamp: string }) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(doc.filters.properties).toEqual([{ key: "plan", value: "pro", operator: "exact", type: "event" }]);
  });

  it("follows pages (before=) beyond the service's largest page of 1000", async () => {
    await h.reseed<PartialState>((state) => {
      const base = h.clock.now() - 3_600_000;
      for (let i = 0; i < 1100; i++) {
        state.events?.push({
          id: `0190f1d2-7b60-7c3a-9d1f-${String(i).padStart(12, "0")}`,
          team_id: 12345,
          distinct_id: "bulk",
          person_id: null,
          event: "bulk_event",
          timestamp: new Date(base + i * 1000).toISOString(),
          properties: { i },
          elements_chain: "",
        });
      }
    });
    await h.clearRequests();
    const out = await h.run(events, { event: "bulk_event", limit: "1050", format: "json" });
    const doc = validJson("events", out.stdout);
    expect(doc.events).toHaveLength(1050);
    expect(new Set(doc.events.map((e: { id: string }) => e.id)).size).toBe(1050);
    expect(doc.events[0].properties.i).toBe(1099);
    const pages = await h.requests();
    expect(pages).toHaveLength(2);
    expect(new URLSearchParams(pages[1]?.query).get("before")).toBeTruthy();
  });

  it("stops at --limit and shows a table by default", async () => {
    await h.clearRequests();
    const out = await h.run(events, { limit: "7", distinctId: "user-3" });
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^TIMESTAMP\s+EVENT\s+DISTINCT ID\s+PROPERTIES$/);
    expect(lines).toHaveLength(8);
    expect(lines.slice(1).every((l) => /\suser-3\s/.test(l))).toBe(true);
    expect(out.stderr).toBe("7 events (--limit 7 reached)\n");
    expect(await h.requests()).toHaveLength(1);
  });

  it("refuses a malformed --where or time window before sending", async () => {
    await h.clearRequests();
    for (const [options, message] of [
      [{ where: "plan" }, "--where plan must look like key=value, e.g. --where '$browser=Chrome'"],
      [{ after: "-1d", before: "-2d" }, "--after -1d must be before --before -2d"],
      [{ format: "xml" }, '--format must be one of text, json, csv, got "xml"'],
    ] as const) {
      const out = await h.run(events, options);
      expect(out.code).toBe(1);
      expect(out.stderr).toBe(`error: ${message}\n`);
    }
    expect(await h.requests()).toEqual([]);
  });
});
