/**
 * A dashboard pinned by an `id:` the project does not have (issue 30): the service answers 404 alike
 * for a soft-deleted dashboard and for one that never existed, so plan cannot tell and plans a restore
 * whose line says so; the restore that fails because the id is unknown is one outcome naming the pin,
 * the project and the fix, and the rest of the apply goes on. (A flag's pin is checked by plan: the
 * service reads a soft-deleted flag by id.)
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });

describe("an id pin the project does not have", () => {
  it("plans a restore that says so; apply fails it alone, naming the pin and the project, and goes on", async () => {
    h.write(
      "p/d.yaml",
      [
        "project: 12345",
        "dashboards:",
        "  - name: Ghost board",
        "    id: 999",
        "    description: from an old export",
        "  - name: Fresh board",
        "",
      ].join("\n"),
    );
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      "! id 999 is not in project 12345's live list: soft-deleted, or never there (the service answers alike, so plan cannot tell); apply restores it if it was soft-deleted, and otherwise fails naming the pin",
    );
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain(
      '✗ ↺ restore · dashboard "Ghost board" (id 999) in project 12345 — project 12345 has no dashboard 999, live or soft-deleted: remove the `id: 999` pin of dashboard "Ghost board" (p/d.yaml:3) to create it anew',
    );
    // The other work went on.
    expect(apply.stdout).toMatch(/✓ \+ create · dashboard "Fresh board" \(id \d+\) in project 12345/);
    expect(apply.stdout).toContain("Apply failed: 1 succeeded, 1 failed, 1 skipped.");
  });
});
