/**
 * A replacement (SPEC §3): a destination type change creates the new export, then deletes the old one.
 * When that DELETE fails, the apply says so (and does not report the pair as a duplicate), the next plan
 * recognises the pair and plans only the delete, and the second apply converges.
 */
import { describe, expect, it } from "vitest";
import { type Json, POSTGRES_EXPORT_ID, useEmulator } from "../support/emulator.js";

const h = useEmulator();
const NAME = "Persons to Postgres";
const NOOP = `project: 12345\nbatch_exports:\n  - name: ${NAME}\n    model: persons\n    interval: day\n    paused: true\n    destination:\n      type: NoOp\n`;

const live = async () =>
  (await h.state()).batch_exports.filter((b: Json) => b.name === NAME && !b.deleted && b.team_id === 12345);

describe("a replacement whose delete fails", () => {
  it("the next plan recognises the pair and plans only the delete; two applies converge", async () => {
    h.write("p/b.yaml", NOOP);
    await h.faults({ rules: [{ method: "DELETE", path: "/batch_exports/[^/]+/?$", status: 500 }] });
    const first = await h.cli(["apply", "--auto-approve", "--force", "p"]);
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/^✓ \+ create · batch export "Persons to Postgres" \(id [0-9a-f-]+\)/m);
    expect(first.stdout).toMatch(/^✗ - delete · batch export "Persons to Postgres" \(id 0190f1d2-.*500/m);
    // The pair is the failed delete's business, already reported: not a duplicate made by another apply.
    expect(first.stderr).toBe("");
    const pair = await live();
    expect(pair).toHaveLength(2);
    const created = pair.find((b: Json) => b.id !== POSTGRES_EXPORT_ID);
    expect(created.destination.type).toBe("NoOp");
    await h.faults({});

    const refused = await h.cli(["plan", "p"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `error: batch export "${NAME}": 2 live objects have this name (ids ${created.id}, ${POSTGRES_EXPORT_ID}): export ${POSTGRES_EXPORT_ID} (destination.type Postgres) is what the replacement by export ${created.id} left behind when its delete failed; rerun with --force to delete it`,
    );

    const plan = JSON.parse((await h.cli(["plan", "--force", "--format", "json", "p"])).stdout);
    expect(plan.actions.map((a: Json) => [a.action, a.object.id])).toEqual([["delete", POSTGRES_EXPORT_ID]]);

    const second = await h.cli(["apply", "--auto-approve", "--force", "p"]);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect((await live()).map((b: Json) => b.id)).toEqual([created.id]);
    const after = await h.cli(["plan", "--detailed-exitcode", "p"]);
    expect(after.stdout).toContain("No changes");
    expect(after.code).toBe(0);
  });
});
