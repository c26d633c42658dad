/**
 * Pull never turns service text into a variable lookup, names a portable schema, and `pull --refresh`
 * updates the live values of the files you have, leaving every other byte as it was (SPEC §2, issue 14
 * item 2, issue 16 item 8).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KEY, P, USER_UUIDS, useEmulator } from "../support/emulator.js";

const h = useEmulator();
const read = (name: string) => readFileSync(join(h.dir, name), "utf8");

describe("pull escapes live text", () => {
  it("round-trips ${POSTHOG_API_KEY}, $${X} and $ through pull → plan: no changes, nothing looked up", async () => {
    const description = "see ${POSTHOG_API_KEY}, $${X} and $ alone";
    expect((await h.api("PATCH", `${P}/dashboards/1/`, { description })).status).toBe(200);
    const pulled = await h.cli(["pull", "--project", "12345", "--out", "adopted", "--kind", "dashboards"]);
    expect(pulled.code, pulled.stderr).toBe(0);
    const text = read("adopted/dashboards.yaml");
    expect(text).toContain("see $${POSTHOG_API_KEY}, $$${X} and $ alone");
    const plan = await h.cli(["plan", "adopted", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain("No changes.");
    expect(plan.stdout + plan.stderr).not.toContain(KEY);
  });

  it("names a portable schema in the modeline, never a path of this machine nor the npm registry", async () => {
    const pulled = await h.cli(["pull", "--project", "12345", "--out", "adopted", "--kind", "dashboards"]);
    expect(pulled.code).toBe(0);
    const modeline = read("adopted/dashboards.yaml").split("\n")[0];
    expect(modeline).toMatch(
      // The release's file in the action's repository (tagged v<version>): the package need not be
      // on the npm registry for it to resolve.
      /^# yaml-language-server: \$schema=https:\/\/raw\.githubusercontent\.com\/posthog-gitops\/posthog-gitops\/v\d+\.\d+\.\d+[^/]*\/schemas\/config\.schema\.json$/,
    );
    expect(pulled.stderr).toMatch(/^wrote adopted\/dashboards\.yaml: \d+ dashboards\n$/);
  });
});

describe("pull --refresh", () => {
  const original = [
    "# Product dashboards, owned by the growth team.",
    "project: 12345",
    "variables: [TEAM]",
    "dashboards:",
    "  # The board the Monday review uses.",
    "  - name: Product KPIs   # keep this name",
    "    id: 1",
    "    description: Owned by ${TEAM}",
    "    pinned: true        # pinned for everyone",
    "    tags:",
    "      - kpi",
    "      - product",
    "  - name: Not live yet",
    "    pinned: false",
    "",
  ].join("\n");

  it("writes the values changed in the UI and keeps comments, order and ${NAME} byte for byte", async () => {
    h.write("posthog/d.yaml", original);
    // Edited in the UI: unpinned, retagged, and the description rewritten.
    const edit = await h.api("PATCH", `${P}/dashboards/1/`, {
      pinned: false,
      tags: ["kpi", "weekly"],
      description: "Owned by marketing",
    });
    expect(edit.status).toBe(200);
    const result = await h.cli(["pull", "--refresh"], { TEAM: "growth" });
    expect(result.code, result.stderr).toBe(0);
    expect(read("posthog/d.yaml")).toBe(
      original
        .replace(
          "    pinned: true        # pinned for everyone",
          "    pinned: false        # pinned for everyone",
        )
        // The list keeps its block style: one item changes, one line.
        .replace("      - product", "      - weekly"),
    );
    expect(result.stderr).toContain("refreshed posthog/d.yaml: 2 fields (");
    expect(result.stderr).toContain(
      'kept description of dashboard "Product KPIs": written with a ${NAME} reference, kept as it is',
    );
    expect(result.stderr).toContain('dashboard "Not live yet" is not live (apply would create it)');
    // Only the field written with a reference still differs for Product KPIs.
    const plan = await h.cli(["plan", "--format", "json"], { TEAM: "growth" });
    const actions = JSON.parse(plan.stdout).actions.filter(
      (a: { object: { name: string } }) => a.object.name === "Product KPIs",
    );
    expect(
      actions.map((a: { action: string; changes: { path: string }[] }) => [
        a.action,
        a.changes.map((c) => c.path),
      ]),
    ).toEqual([["update", ["description"]]]);
  });

  it("an added collaborator is one new item in the list's own form, every other line kept", async () => {
    const file = [
      "project: 12345",
      "dashboards:",
      "  - name: Revenue",
      "    id: 3",
      "    restriction_level: only_collaborators",
      "    collaborators:   # the finance team",
      "      - email: carol@example.com   # finance lead",
      "        level: can_edit",
      "",
    ].join("\n");
    h.write("posthog/d.yaml", file);
    expect((await h.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
    const added = await h.api("POST", `${P}/dashboards/3/collaborators/`, {
      user_uuid: USER_UUIDS.bob,
      level: 37,
    });
    expect(added.status, added.text).toBe(201);
    const result = await h.cli(["pull", "--refresh"]);
    expect(result.code, result.stderr).toBe(0);
    // Pull names collaborators by email, sorted: bob comes before carol, who stays as written.
    expect(read("posthog/d.yaml")).toBe(
      file.replace(
        "      - email: carol@example.com",
        "      - email: bob@example.com\n        level: can_edit\n      - email: carol@example.com",
      ),
    );
    expect((await h.cli(["plan", "--detailed-exitcode"])).code).toBe(0);
  });

  it("says so when there is nothing to refresh, and leaves the file alone", async () => {
    h.write("posthog/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n    pinned: true\n");
    const before = read("posthog/d.yaml");
    const result = await h.cli(["pull", "--refresh"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("Nothing to refresh: the files declare what is live.\n");
    expect(read("posthog/d.yaml")).toBe(before);
  });

  it("refuses paths without --refresh, and --out with it", async () => {
    expect((await h.cli(["pull", "posthog"])).stderr).toContain(
      "to update files you have, use pull --refresh PATH",
    );
    expect((await h.cli(["pull", "--refresh", "--out", "x"])).stderr).toContain(
      "give them as PATH, not --out",
    );
  });
});
