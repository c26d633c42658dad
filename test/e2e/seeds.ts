/**
 * Large seeds for the request-count and pull suites: the default seed's organization, users and key,
 * with generated dashboards (some restricted with collaborators, some shared) and batch exports of mixed
 * destination types carrying secrets. Secret values are distinctive so leak checks can grep for them.
 */
import { USER_UUIDS } from "posthog-gitops-emulator";
import type { Json } from "../support/emulator.js";

export const SEED_SECRET = "SECRET_VALUE_zq9x_seeded";
const STAMP = "2025-05-01T10:00:00.000Z";

export interface BigSeedOptions {
  dashboards: number;
  exports: number;
  /** Every n-th dashboard is restricted with one or two collaborators. */
  restrictedEvery: number;
  /** Every n-th dashboard has sharing enabled. */
  sharedEvery: number;
}

function destination(i: number): Json {
  switch (i % 4) {
    case 0:
      return {
        type: "S3",
        config: {
          bucket_name: `bucket-${i}`,
          region: "us-east-1",
          prefix: `p/${i}/`,
          aws_access_key_id: `${SEED_SECRET}_ak${i}`,
          aws_secret_access_key: `${SEED_SECRET}_sk${i}`,
        },
      };
    case 1:
      return {
        type: "Postgres",
        config: {
          host: `db${i}.example.com`,
          port: 5432,
          database: "analytics",
          schema: "public",
          table_name: `t${i}`,
          user: `${SEED_SECRET}_user${i}`,
          password: `${SEED_SECRET}_pw${i}`,
        },
      };
    case 2:
      return { type: "NoOp", config: {} };
    default:
      return {
        type: "HTTP",
        config: { url: `https://hooks${i}.example.com/in`, token: `${SEED_SECRET}_tok${i}` },
      };
  }
}

/** The default seed (from `GET /_emulator/state`) with project 12345's objects replaced. */
export function bigSeed(base: Json, o: BigSeedOptions): Json {
  const seed = structuredClone(base);
  const keep = (x: Json) => x.team_id !== 12345;
  seed.dashboards = seed.dashboards.filter(keep);
  seed.batch_exports = seed.batch_exports.filter(keep);
  const keptExports = new Set(seed.batch_exports.map((b: Json) => b.id));
  seed.runs = (seed.runs ?? []).filter((r: Json) => keptExports.has(r.batch_export_id));
  seed.backfills = (seed.backfills ?? []).filter((r: Json) => keptExports.has(r.batch_export_id));
  seed.logs = [];
  const keptDashboards = new Set(seed.dashboards.map((d: Json) => d.id));
  seed.collaborators = seed.collaborators.filter((c: Json) => keptDashboards.has(c.dashboard_id));
  seed.sharing = seed.sharing.filter((s: Json) => keptDashboards.has(s.dashboard_id));
  for (let i = 0; i < o.dashboards; i++) {
    const id = 1000 + i;
    const restricted = i % o.restrictedEvery === 0;
    seed.dashboards.push({
      id,
      team_id: 12345,
      name: `Dashboard ${String(i).padStart(4, "0")}`,
      description: i % 3 === 0 ? `About area ${i}` : "",
      pinned: i % 5 === 0,
      tags: i % 2 === 0 ? ["team-a", `t${i % 7}`] : [],
      restriction_level: restricted ? 37 : 21,
      created_by: 1,
    });
    if (restricted) {
      const users = i % 2 === 0 ? [2] : [2, 3];
      for (const user of users) {
        seed.collaborators.push({
          id: `0190f1d2-7b4e-7c3a-${String(user).padStart(4, "0")}-${String(id).padStart(12, "0")}`,
          dashboard_id: id,
          user,
          level: 37,
          added_at: STAMP,
          updated_at: STAMP,
        });
      }
    }
    if (i % o.sharedEvery === 0) {
      seed.sharing.push({
        dashboard_id: id,
        enabled: true,
        access_token: `shareToken${String(id).padStart(20, "0")}`,
        created_at: STAMP,
        settings: null,
        password_required: false,
      });
    }
  }
  for (let i = 0; i < o.exports; i++) {
    seed.batch_exports.push({
      id: `0190f1d2-7b4e-7c3a-9d1f-${String(0xe1000 + i).padStart(12, "0")}`,
      team_id: 12345,
      name: `Export ${String(i).padStart(4, "0")}`,
      // HTTP destinations only take events.
      model: i % 3 === 0 && i % 4 !== 3 ? "persons" : "events",
      interval: i % 2 === 0 ? "hour" : "day",
      paused: i % 6 === 0,
      destination: destination(i),
    });
  }
  seed.sequences = { ...seed.sequences, dashboard: 1000 + o.dashboards + 1 };
  return seed;
}

/** The collaborator user uuids of a generated restricted dashboard `i`. */
export function collaboratorUuids(i: number): string[] {
  return i % 2 === 0 ? [USER_UUIDS.bob] : [USER_UUIDS.bob, USER_UUIDS.carol];
}
