/**
 * A secret's value that is also ordinary text elsewhere (a token `analytics` and a dashboard "Weekly
 * analytics review"; a value that is part of the host) is hidden in what is printed, but never changes
 * what the tool reads back or writes into the user's files: a saved plan still applies, and
 * `pull --refresh` leaves such a field as the file has it instead of writing a secret or a placeholder.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Json, P, useEmulator } from "../support/emulator.js";

const h = useEmulator();

const SECRETS = { T_TOKEN: "analytics", T_OTHER: "127.0.0.1" };
const CONFIG = `project: 12345
dashboards:
  - name: Weekly analytics review
    description: Reviewed on Mondays
batch_exports:
  - name: to-http
    model: events
    interval: day
    destination:
      type: HTTP
      config:
        url: https://us.i.posthog.com/batch/
        token: \${T_TOKEN}
  - name: to-http-two
    model: events
    interval: day
    destination:
      type: HTTP
      config:
        url: https://us.i.posthog.com/batch/
        token: \${T_OTHER}
`;

describe("a secret's value in ordinary text", () => {
  it("is hidden in the plan shown, and the saved plan still applies exactly", async () => {
    h.write("p/all.yaml", CONFIG);
    const plan = await h.cli(["plan", "--out", "plan.json", "p"], SECRETS);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("Weekly (secret from $T_TOKEN) review");
    expect(plan.stdout).not.toContain("analytics");
    const saved = readFileSync(join(h.dir, "plan.json"), "utf8");
    expect(saved).not.toContain("analytics");
    // The host (which holds T_OTHER's value) is written as it is: apply reads it back to compare.
    expect(JSON.parse(saved).host).toBe(h.url);

    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"], SECRETS);
    expect(apply.code, apply.stderr).toBe(0);
    const names = (await h.state()).dashboards.map((d: Json) => d.name);
    expect(names).toContain("Weekly analytics review");
    expect(names).not.toContain("Weekly (secret from $T_TOKEN) review");
    const again = await h.cli(["plan", "--detailed-exitcode", "p"], SECRETS);
    expect(again.code, again.stdout).toBe(0);
    rmSync(join(h.dir, "plan.json")); // holds the host, which holds T_OTHER's value: checked above
  });

  it("pull --refresh keeps a field whose live value holds a secret's value, and says so", async () => {
    const file = "posthog/d.yaml";
    // The file resolves T_TOKEN (a destination's token), so this run knows its value as a secret.
    const exports = CONFIG.slice(CONFIG.indexOf("batch_exports:"), CONFIG.indexOf("  - name: to-http-two"));
    h.write(
      file,
      `project: 12345\ndashboards:\n  - name: Product KPIs\n    id: 1\n    description: Old text\n    pinned: true\n${exports}`,
    );
    const live = { description: "Numbers for the analytics team", pinned: false };
    expect((await h.api("PATCH", `${P}/dashboards/1/`, live)).status).toBe(200);
    const refreshed = await h.cli(["pull", "--refresh", "posthog"], SECRETS);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toContain(
      'kept dashboard "Product KPIs" description: its live value is (secret from $T_TOKEN), which is never written to a file',
    );
    const text = readFileSync(join(h.dir, file), "utf8");
    expect(text).toContain("description: Old text");
    expect(text).toContain("pinned: false"); // the other field is refreshed
    expect(text).not.toContain("secret from");
  });
});
