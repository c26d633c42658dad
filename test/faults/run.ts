/**
 * One fault run: seed the world, apply once under its fault mix (through a proxy adding latency spikes to
 * some requests, at a random --concurrency of 1, 4 or 8), then (if the plan still shows changes)
 * apply a second time under benign faults only (latency and a few 429s), and check the invariants:
 * the final plan is empty, no name is live twice in a project, no collaborator is doubled, and every
 * object outside the plan made before the faults (undeclared ones included) is byte-for-byte what it
 * was. Returns the problems found (empty when the run passed).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "posthog-gitops-emulator";
import {
  clearLog,
  control,
  type EmulatorState,
  getState,
  requestLog,
  seedObjects,
} from "../../bench/control.js";
import { main } from "../../src/cli.js";
import { memoryIo } from "../support/io.js";
import { startSpikeProxy } from "./spike-proxy.js";
import { makeWorld, PROJECT, prng } from "./world.js";

const SECRETS = { AWS_ACCESS_KEY_ID: "AKIAFAULTS000000000", AWS_SECRET_ACCESS_KEY: "faults-not-a-secret" };

export interface RunReport {
  seed: number;
  applies: number;
  /** Exit code of the first apply (1 when some action failed under the faults). */
  firstExit: number;
  /** Requests whose outcome an injected fault decided, by kind (status, lose_response, reset). */
  faultsFired: Record<string, number>;
  problems: string[];
}

/**
 * Every object the plan does not touch, as the emulator stores it (dashboards with their collaborators
 * and sharing, batch exports, insights, feature flags, cohorts, actions), keyed by project, kind and name: `touched`
 * holds `objectKey`s (`project/kind/name`) of the plan's actions. Undeclared objects are always in it.
 */
export function untouchedSnapshot(state: EmulatorState, touched: ReadonlySet<string>): string {
  const dashboards = state.dashboards.filter((d) => !touched.has(`${d.team_id}/dashboard/${d.name}`));
  const ids = new Set(dashboards.map((d) => d.id));
  return JSON.stringify({
    dashboards,
    collaborators: state.collaborators.filter((c) => ids.has(c.dashboard_id)),
    sharing: state.sharing.filter((s) => ids.has(s.dashboard_id)),
    exports: state.batch_exports.filter((b) => !touched.has(`${b.team_id}/batch_export/${b.name}`)),
    insights: records(state, "insights").filter((i) => !touched.has(`${i.team_id}/insight/${i.name}`)),
    flags: records(state, "feature_flags").filter((f) => !touched.has(`${f.team_id}/feature_flag/${f.key}`)),
    cohorts: records(state, "cohorts")
      .filter((c) => !touched.has(`${c.team_id}/cohort/${c.name}`))
      // Reads finish calculations (the service's worker): not a change anyone made.
      .map(
        ({ is_calculating: _c, version: _v, last_calculation: _l, calculations: _h, count: _n, ...c }) => c,
      ),
    actions: records(state, "actions").filter((a) => !touched.has(`${a.team_id}/action/${a.name}`)),
  });
}

/** A list of the emulator's store the campaign reads by its identity fields. */
function records(state: EmulatorState, key: string): Array<Record<string, unknown>> {
  return (state[key] ?? []) as Array<Record<string, unknown>>;
}

/**
 * The `objectKey`s of a JSON plan's actions, and of the insights its tile actions put on or take off a
 * dashboard (a tile is placed through its insight's own record).
 */
export function touchedKeys(planJson: string): Set<string> {
  const plan = JSON.parse(planJson) as {
    actions: Array<{
      action?: string;
      object: { project: number; kind: string; name: string };
      before?: { insight?: string };
      after?: { insight?: string };
    }>;
  };
  return new Set(
    plan.actions.flatMap((a) => {
      const own = `${a.object.project}/${a.object.kind}/${a.object.name}`;
      const insight = a.action?.endsWith("_tile") ? (a.after?.insight ?? a.before?.insight) : undefined;
      return insight === undefined ? [own] : [own, `${a.object.project}/insight/${insight}`];
    }),
  );
}

export function duplicates(state: EmulatorState): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const once = (key: string, what: string) => {
    if (seen.has(key)) problems.push(`duplicate ${what}`);
    seen.add(key);
  };
  for (const d of state.dashboards)
    if (!d.deleted) once(`d/${d.team_id}/${d.name}`, `dashboard "${d.name}" in project ${d.team_id}`);
  for (const b of state.batch_exports)
    if (!b.deleted) once(`b/${b.team_id}/${b.name}`, `batch export "${b.name}" in project ${b.team_id}`);
  for (const c of state.collaborators)
    once(`c/${c.dashboard_id}/${c.user}`, `collaborator ${c.user} on dashboard ${c.dashboard_id}`);
  for (const i of records(state, "insights"))
    if (!i.deleted) once(`i/${i.team_id}/${i.name}`, `insight "${i.name}" in project ${i.team_id}`);
  for (const f of records(state, "feature_flags"))
    if (!f.deleted) once(`f/${f.team_id}/${f.key}`, `feature flag "${f.key}" in project ${f.team_id}`);
  for (const c of records(state, "cohorts"))
    if (!c.deleted) once(`co/${c.team_id}/${c.name}`, `cohort "${c.name}" in project ${c.team_id}`);
  for (const a of records(state, "actions"))
    if (!a.deleted) once(`a/${a.team_id}/${a.name}`, `action "${a.name}" in project ${a.team_id}`);
  return problems;
}

export async function faultRun(seed: number): Promise<RunReport> {
  const world = makeWorld(seed);
  const emulator = await startEmulator({ port: 0, rateLimit: "none" });
  const proxy = await startSpikeProxy(emulator.url, seed, prng(seed).chance(0.5) ? 0.2 : 0);
  const concurrency = String([1, 4, 8][seed % 3]);
  // Every fourth run also prunes: the undeclared objects of project 12345 are then in the plan.
  const prune = seed % 4 === 0 ? ["--prune", "--force"] : [];
  const root = mkdtempSync(join(tmpdir(), "phgo-faults-"));
  const problems: string[] = [];
  let applies = 0;
  let firstExit = -1;
  const faultsFired: Record<string, number> = {};
  try {
    for (const [name, text] of Object.entries(world.files)) writeFileSync(join(root, name), text);
    await seedObjects(emulator.url, await getState(emulator.url), world.objects);
    const env = { ...SECRETS, POSTHOG_HOST: proxy.url, POSTHOG_API_KEY: "phx_emulator" };
    const cli = async (args: string[]) => {
      const io = memoryIo(env, root);
      const code = await main(["node", "posthog-gitops", ...args, "."], env, io.io);
      if (/internal error/.test(io.stderr))
        problems.push(`internal error in ${args[0]}: ${io.stderr.slice(0, 400)}`);
      return { code, stdout: io.stdout, stderr: io.stderr };
    };
    const planned = await cli(["plan", "--format", "json", ...prune]);
    if (planned.code !== 0) throw new Error(`the fault-free plan failed: ${planned.stderr.slice(0, 400)}`);
    const touched = touchedKeys(planned.stdout);
    const seeded = await getState(emulator.url);
    for (const d of seeded.dashboards.filter((d) => world.undeclared.dashboards.includes(d.id))) {
      const inPlan = touched.has(`${d.team_id}/dashboard/${d.name}`);
      if (inPlan !== (prune.length > 0 && d.team_id === PROJECT)) {
        problems.push(`the plan ${inPlan ? "touches" : "does not prune"} undeclared "${d.name}"`);
      }
    }
    const before = untouchedSnapshot(seeded, touched);
    await clearLog(emulator.url);

    await control(emulator.url, "faults", "POST", world.faults);
    applies++;
    firstExit = (await cli(["apply", "--auto-approve", "--concurrency", concurrency, ...prune])).code;
    for (const r of await requestLog(emulator.url)) {
      if (r.fault) faultsFired[r.fault] = (faultsFired[r.fault] ?? 0) + 1;
    }
    if (proxy.spikes > 0) faultsFired.spike = proxy.spikes;
    await control(emulator.url, "faults", "POST", {});
    let plan = await cli(["plan", "--detailed-exitcode", ...prune]);
    if (plan.code === 2) {
      const benign = { latency_ms: 10, seed, rules: [{ path: ".*", status: 429, retry_after: 0, times: 2 }] };
      await control(emulator.url, "faults", "POST", benign);
      applies++;
      const second = await cli(["apply", "--auto-approve", ...prune]);
      await control(emulator.url, "faults", "POST", {});
      if (second.code !== 0)
        problems.push(`the second apply exited ${second.code}: ${second.stderr.slice(0, 400)}`);
      plan = await cli(["plan", "--detailed-exitcode", ...prune]);
    }
    if (plan.code !== 0)
      problems.push(
        `not converged after ${applies} applies: plan exits ${plan.code}: ${plan.stderr.slice(0, 400)}`,
      );
    const after = await getState(emulator.url);
    problems.push(...duplicates(after));
    if (untouchedSnapshot(after, touched) !== before) problems.push("an object outside the plan was changed");
  } catch (error) {
    problems.push(`run crashed: ${error instanceof Error ? error.stack : String(error)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
    await proxy.close();
    await emulator.close();
  }
  return { seed, applies, firstExit, faultsFired, problems };
}
