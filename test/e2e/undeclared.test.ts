/**
 * `plan --undeclared` (issue 30): the nightly drift plan also reports what was created in PostHog and
 * no file declares, read-only: named in every format, counted by --detailed-exitcode, no action for
 * them, no write; `ignore:` globs leave objects out, as they do for --prune.
 */
import { describe, expect, it } from "vitest";
import { P, useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });

describe("plan --undeclared", () => {
  it("lists the live objects no file declares, read-only, in every format", async () => {
    h.write(
      "p/d.yaml",
      [
        "project: 12345",
        "ignore:",
        '  dashboards: ["Marketing *"]',
        "dashboards:",
        "  - name: Product KPIs",
        "    pinned: true",
        "  - name: Revenue",
        "  - name: Onboarding Funnel",
        "",
      ].join("\n"),
    );
    expect((await h.cli(["plan", "--detailed-exitcode", "p"])).code).toBe(0);
    const made = await h.api("POST", `${P}/dashboards/`, { name: "Made in the UI" });
    expect(made.status).toBe(201);
    await h.clearRequests();
    const text = await h.cli(["plan", "--undeclared", "--detailed-exitcode", "p"]);
    expect(text.code, text.stderr).toBe(2);
    expect(text.stdout).toBe(
      [
        "1 live object no file declares (created in PostHog?):",
        `  ? dashboard "Made in the UI" (id ${made.body.id}) in project 12345`,
        "  declare them (posthog-gitops pull writes their YAML), list them under ignore:, or delete them with apply --prune.",
        "",
        "No changes. The live service matches the configuration.",
        "",
      ].join("\n"),
    );
    expect((await h.requests()).every((r) => r.method === "GET")).toBe(true);
    const json = JSON.parse((await h.cli(["plan", "--undeclared", "--format", "json", "p"])).stdout);
    expect(json.actions).toEqual([]);
    expect(json.undeclared).toEqual([
      { kind: "dashboard", project: 12345, name: "Made in the UI", id: made.body.id },
    ]);
    // Without the flag, nothing of it; with --prune, the deletes instead.
    expect((await h.cli(["plan", "p"])).stdout).not.toContain("Made in the UI");
    const prune = await h.cli(["plan", "--prune", "--undeclared", "p", "--format", "json"]);
    expect(JSON.parse(prune.stdout).undeclared).toBeUndefined();
  });
});
