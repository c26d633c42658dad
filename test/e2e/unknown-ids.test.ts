/**
 * Ids the project or the key do not have (issue 30). A `project:` the key cannot reach is an error at
 * that line, with what to check.
 *
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

describe("a project: the key cannot reach", () => {
  it("is an error at that line naming what to check, for a project that does not exist or one the key is limited away from", async () => {
    h.write("p/d.yaml", "# Growth dashboards.\nproject: 99999\ndashboards:\n  - name: Weekly KPIs\n");
    const missing = await h.cli(["plan", "p"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^p\/d\.yaml:2:10: error: project 99999 cannot be reached with this key \(.*Project not found\.\): check the id, that the key's user is a member of the project, and that the key is not limited to other projects \(posthog-gitops whoami shows which it may reach\)\n$/m,
    );
    const key = "phx_limited_to_staging_0123456789";
    await h.reseed((s) => s.api_keys.push({ key, user: 1, scopes: ["*"], scoped_teams: [12346] }));
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Weekly KPIs\n");
    const limited = await h.cli(["plan", "p"], { POSTHOG_API_KEY: key });
    expect(limited.code).toBe(1);
    expect(limited.stderr).toMatch(
      /^p\/d\.yaml:1:10: error: project 12345 cannot be reached with this key \(.*\): check the id/m,
    );
  });
});
