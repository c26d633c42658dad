import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultSeed, startEmulator } from "../src/index.js";
import { normaliseSeed, SeedError } from "../src/seed.js";
import { defaultService } from "../src/service.js";
import { TEST_NOW } from "./support/clock.js";

const auth = { Authorization: "Bearer phx_emulator", "Content-Type": "application/json" };

describe("state file", () => {
  it("loads the store from an existing state file and writes changes back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emulator-state-"));
    const file = join(dir, "state.json");
    try {
      const first = await startEmulator({ stateFile: file });
      await fetch(`${first.url}/api/projects/12345/dashboards/`, {
        method: "POST",
        headers: auth,
        body: '{"name":"Persisted"}',
      });
      await first.close();
      expect(JSON.parse(readFileSync(file, "utf8")).dashboards).toHaveLength(6);
      const second = await startEmulator({ stateFile: file });
      const list = await fetch(`${second.url}/api/projects/12345/dashboards/?search=Persisted`, {
        headers: auth,
      });
      expect(((await list.json()) as { count: number }).count).toBe(1);
      const created = await fetch(`${second.url}/api/projects/12345/dashboards/`, {
        method: "POST",
        headers: auth,
        body: "{}",
      });
      expect(((await created.json()) as { id: number }).id).toBe(7);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps the state file 0600 when it existed wider, and never writes through a link at its path", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emulator-state-"));
    const file = join(dir, "state.json");
    const change = async (url: string) =>
      fetch(`${url}/api/projects/12345/dashboards/`, { method: "POST", headers: auth, body: "{}" });
    try {
      const first = await startEmulator({ stateFile: file });
      await change(first.url);
      await first.close();
      chmodSync(file, 0o644);
      const second = await startEmulator({ stateFile: file });
      await change(second.url);
      await second.close();
      expect(statSync(file).mode & 0o777).toBe(0o600);
      // A link at the path is read through, then replaced by the file: what it pointed to is untouched.
      renameSync(file, join(dir, "target.json"));
      symlinkSync("target.json", file);
      const before = readFileSync(join(dir, "target.json"), "utf8");
      const third = await startEmulator({ stateFile: file });
      await change(third.url);
      await third.close();
      expect(lstatSync(file).isSymbolicLink()).toBe(false);
      expect(readFileSync(join(dir, "target.json"), "utf8")).toBe(before);
      expect(JSON.parse(readFileSync(file, "utf8")).dashboards).toHaveLength(8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads a seed file path and refuses a non-loopback host unless allowed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emulator-seed-"));
    try {
      const file = join(dir, "seed.json");
      writeFileSync(
        file,
        JSON.stringify({
          organizations: [{ id: "o1", name: "Solo", features: { tagging: false } }],
          projects: [{ id: 7, name: "P", organization: "o1" }],
          users: [
            {
              id: 1,
              uuid: "0190f1d2-0000-7000-8000-000000000001",
              email: "s@example.com",
              organizations: [{ id: "o1", level: "admin" }],
            },
          ],
        }),
      );
      const emulator = await startEmulator({ seed: file, apiKey: "phx_solo" });
      const org = await fetch(`${emulator.url}/api/organizations/@current/`, {
        headers: { Authorization: "Bearer phx_solo" },
      });
      expect(
        (
          (await org.json()) as { available_product_features: { key: string }[] }
        ).available_product_features.map((f) => f.key),
      ).toEqual(["advanced_permissions", "access_control"]);
      await emulator.close();
      await expect(startEmulator({ host: "0.0.0.0" })).rejects.toThrow(/non-loopback/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("normaliseSeed", () => {
  it("fills defaults for partial records and names the first bad one", () => {
    const data = normaliseSeed(
      {
        dashboards: [{ id: 3, team_id: 1 }],
        runs: [{ batch_export: "x", data_interval_end: "2025-01-01T00:00:00Z" }],
        events: [{ team_id: 1, event: "e" }],
      },
      new Date(TEST_NOW),
    );
    expect(data.dashboards[0]).toMatchObject({ name: "", restriction_level: 21, tags: [], deleted: false });
    expect(data.runs[0]?.status).toBe("Completed");
    expect(data.events[0]?.properties).toEqual({});
    expect(data.sequences.dashboard).toBe(4);
    expect(() => normaliseSeed({ projects: [{ name: "no id" }] }, new Date(TEST_NOW))).toThrow(SeedError);
    expect(() => normaliseSeed([], new Date(TEST_NOW))).toThrow(/must be a JSON object/);
  });
});

describe("the default seed through normaliseSeed", () => {
  it("keeps its cohorts, actions and persons as they are (the state posted back is the same store)", () => {
    const start = defaultSeed(new Date(TEST_NOW), defaultService());
    const again = normaliseSeed(JSON.parse(JSON.stringify(start)), new Date(TEST_NOW));
    expect(again.cohorts).toEqual(start.cohorts);
    expect(again.actions).toEqual(start.actions);
    expect(again.persons).toEqual(start.persons);
    expect(again.sequences).toEqual(start.sequences);
  });

  it("fills a partial cohort, action and person, and names a bad one", () => {
    const data = normaliseSeed(
      {
        cohorts: [{ id: 5, team_id: 1, name: null, groups: [{ properties: { plan: "pro" } }] }],
        actions: [{ id: 2, team_id: 1, steps_json: [{ event: "e", bogus: 1 }] }],
        persons: [{ uuid: "u", team_id: 1 }],
      },
      new Date(TEST_NOW),
    );
    expect(data.cohorts[0]).toMatchObject({ filters: null, is_static: false, version: null, people: [] });
    expect(data.cohorts[0]?.groups).toEqual([
      {
        properties: { plan: "pro" },
        action_id: null,
        event_id: null,
        label: null,
        days: null,
        count: null,
        count_operator: null,
        start_date: null,
        end_date: null,
      },
    ]);
    expect(data.actions[0]?.steps).toEqual([{ event: "e" }]);
    expect(data.persons[0]).toMatchObject({ distinct_ids: [], properties: {} });
    expect(data.sequences).toMatchObject({ cohort: 6, action: 3 });
    expect(() => normaliseSeed({ cohorts: [{ id: 1, team_id: 1 }] }, new Date(TEST_NOW))).toThrow(/"name"/);
  });
});
