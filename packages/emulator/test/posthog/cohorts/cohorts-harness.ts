/**
 * What the ports of PostHog's cohort and action API tests share, on top of `usePostHog` (../harness.ts):
 * the ORM rows PostHog's tests create (`Cohort.objects.create`, `FeatureFlag.objects.create`,
 * `Insight.objects.create`, `Action.objects.create`, `HogFunction.objects.create`, persons) as records
 * of the emulator's state, created in one round trip each call; a multipart body (Django's test client
 * with `format="multipart"`, a CSV as `SimpleUploadedFile`); the cohort calculation worker, which
 * PostHog's tests mock (`calculate_cohort_ch.delay`) or run eagerly: the world's service has
 * `cohort_calculation_ms: null` (never by itself) and `runWorker()` runs the queued calculations
 * (`POST /_emulator/cohorts/recalculate`).
 *
 * `notPorted(test, reason)` (../harness.ts, re-exported) names a case that is not ported: it needs what
 * the emulator does not model (persons computed in ClickHouse, the activity log, the project tree,
 * Celery's task arguments, internal functions, database query counts); it is a todo the fidelity
 * report counts as not ported (test/posthog/README.md).
 */
import type { EmulatorHarness } from "../../support/harness.js";
import type { World } from "../harness.js";

type Loose = Record<string, unknown>;

export { notPorted } from "../harness.js";

/** The service switch of these ports: the cohort worker runs only when a test runs it. */
export const WORKER_OFF = { cohort_calculation_ms: null };

export class Orm {
  constructor(
    private readonly world: World,
    private readonly h: EmulatorHarness,
  ) {}

  private async nextIds(
    list: "cohorts" | "feature_flags" | "insights" | "actions",
    n: number,
  ): Promise<number[]> {
    const state = await this.world.state();
    const rows = state[list] as unknown as Array<{ id: number }>;
    const first = Math.max(0, ...rows.map((r) => r.id)) + 1;
    return Array.from({ length: n }, (_, i) => first + i);
  }

  /** `Cohort.objects.create(team=self.team, **fields)`, several at once; their ids. */
  async cohorts(...rows: Loose[]): Promise<number[]> {
    const ids = await this.nextIds("cohorts", rows.length);
    await this.world.insert(
      "cohorts",
      ...rows.map((r, i) => ({
        id: ids[i],
        team_id: this.world.team,
        name: null,
        created_at: this.at(i),
        ...r,
      })),
    );
    return ids;
  }

  async cohort(fields: Loose): Promise<number> {
    return (await this.cohorts(fields))[0] as number;
  }

  /** `FeatureFlag.objects.create(team=self.team, created_by=self.user, **fields)`. */
  async flags(...rows: Loose[]): Promise<number[]> {
    const ids = await this.nextIds("feature_flags", rows.length);
    await this.world.insert(
      "feature_flags",
      ...rows.map((r, i) => ({ id: ids[i], team_id: this.world.team, created_by: this.world.user.id, ...r })),
    );
    return ids;
  }

  async flag(fields: Loose): Promise<number> {
    return (await this.flags(fields))[0] as number;
  }

  /** `Insight.objects.create(team=self.team, **fields)`; ids and short ids. */
  async insights(...rows: Loose[]): Promise<Array<{ id: number; short_id: string }>> {
    const ids = await this.nextIds("insights", rows.length);
    const shortIds = ids.map((id) => `sh${String(id).padStart(6, "0")}`);
    await this.world.insert(
      "insights",
      ...rows.map((r, i) => ({ id: ids[i], short_id: shortIds[i], team_id: this.world.team, ...r })),
    );
    return ids.map((id, i) => ({ id, short_id: shortIds[i] as string }));
  }

  async insight(fields: Loose): Promise<{ id: number; short_id: string }> {
    return (await this.insights(fields))[0] as { id: number; short_id: string };
  }

  /** `Action.objects.create(team=self.team, **fields)` (`steps_json` stored as given). */
  async action(fields: Loose): Promise<number> {
    const [id] = await this.nextIds("actions", 1);
    await this.world.insert("actions", { id, team_id: this.world.team, ...fields });
    return id as number;
  }

  /** `HogFunction.objects.create(team=self.team, **fields)`; its uuid. */
  async hogFunction(fields: Loose): Promise<string> {
    const state = await this.world.state();
    const id = `0190f1d2-0000-7000-8000-${String(500 + state.hog_functions.length).padStart(12, "0")}`;
    await this.world.insert("hog_functions", { id, team_id: this.world.team, ...fields });
    return id;
  }

  /** `Experiment.objects.create(team=self.team, feature_flag=flag, **fields)`; its id. */
  async experiment(fields: Loose): Promise<number> {
    const state = await this.world.state();
    const id = Math.max(0, ...state.experiments.map((e) => e.id)) + 1;
    await this.world.insert("experiments", { id, team_id: this.world.team, ...fields });
    return id;
  }

  /** `create_person(team=self.team, distinct_ids=..., properties=...)`; its uuid. */
  async person(fields: Loose = {}): Promise<string> {
    const state = await this.world.state();
    const uuid = `0190f1d2-0000-7000-9000-${String(state.persons.length + 1).padStart(12, "0")}`;
    await this.world.insert("persons", { uuid, team_id: this.world.team, ...fields });
    return uuid;
  }

  /** `Model.objects.filter(id=...).update(**changes)`. */
  async update(list: "cohorts" | "feature_flags" | "projects", id: number, changes: Loose): Promise<void> {
    await this.world.update(list, (r) => r.id === id, changes);
  }

  /** Creation times a millisecond apart, in order (the ORM's `timezone.now()` moves on). */
  private at(i: number): string {
    return new Date(this.world.now() + i).toISOString();
  }

  /** The cohort worker (Celery) runs the queued calculations now. */
  async runWorker(): Promise<void> {
    const res = await this.h.control("POST", "cohorts/recalculate", {});
    if (res.status !== 200) throw new Error(`recalculate: ${res.status} ${res.text}`);
  }
}

export interface Upload {
  filename: string;
  content: string;
}

/** A `multipart/form-data` body: text fields (a list repeats the name) and files. */
export function multipart(fields: Record<string, string | boolean | number | string[] | Upload>): {
  body: string;
  headers: Record<string, string>;
} {
  const boundary = "----posthog-gitops-port-boundary";
  const parts: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v === "object") {
        parts.push(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${v.filename}"\r\nContent-Type: application/csv\r\n\r\n${v.content}\r\n`,
        );
      } else {
        const text = typeof v === "boolean" ? (v ? "True" : "False") : String(v);
        parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`);
      }
    }
  }
  return {
    body: `${parts.join("")}--${boundary}--\r\n`,
    headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
  };
}
