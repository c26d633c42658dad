/**
 * Collaborators named by `email:` or `user_uuid:` (SPEC §2), both resolved against the organization's
 * members list at plan time: a person who is not a member is a plan error at its file:line, never a
 * failed apply; the list is read once per organization and only when some collaborator is not already
 * on its dashboard; a key that may not read the list (project-scoped) hears so once, naming the scope.
 * `pull` writes `email:`, and `members` lists who can be named.
 */
import { describe, expect, it } from "vitest";
import { type Json, USER_UUIDS, useEmulator } from "../support/emulator.js";
import { validJson } from "../support/valid-json.js";

const h = useEmulator({ env: { NO_COLOR: "1" } });

const board = (collaborators: string[]) =>
  [
    "project: 12345",
    "dashboards:",
    "  - name: Team board",
    "    restriction_level: only_collaborators",
    "    collaborators:",
    ...collaborators,
    "",
  ].join("\n");

const membersReads = (log: { method: string; path: string }[]) =>
  log.filter((r) => r.method === "GET" && /\/members\/?$/.test(r.path)).length;

describe("collaborators resolved against the organization's members", () => {
  it("a collaborator by email plans as that user, applies, and plans again without reading members", async () => {
    h.write("p/d.yaml", board(["      - email: Bob@Example.com", "        level: can_edit"]));
    await h.clearRequests();
    const plan = await h.cli(["plan", "p"]);
    expect(plan.stderr).toBe("");
    expect(plan.stdout).toContain("+ add collaborator Bob <bob@example.com> (can_edit)");
    expect(plan.code).toBe(0);
    expect(membersReads(await h.requests())).toBe(1);
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code, apply.stderr).toBe(0);
    const state = await h.state();
    const id = state.dashboards.find((d: Json) => d.name === "Team board").id;
    const bob = state.users.find((u: Json) => u.uuid === USER_UUIDS.bob).id;
    expect(state.collaborators.filter((c: Json) => c.dashboard_id === id).map((c: Json) => c.user)).toEqual([
      bob,
    ]);
    await h.clearRequests();
    const again = await h.cli(["plan", "--detailed-exitcode", "p"]);
    expect(again.stdout).toContain("No changes");
    expect(again.code).toBe(0);
    // Bob is on the dashboard already: nothing to resolve, so no members read (SPEC §6 no-op budget).
    expect(membersReads(await h.requests())).toBe(0);
  });

  it("a non-member (another organization, inactive, unknown email) is an error at its line, and apply sends nothing", async () => {
    h.write(
      "p/d.yaml",
      board([
        `      - user_uuid: ${USER_UUIDS.dave}`,
        `      - user_uuid: ${USER_UUIDS.erin}`,
        "      - email: nobody@example.com",
        `      - user_uuid: ${USER_UUIDS.bob}`,
      ]),
    );
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    const lines = plan.stderr.trim().split("\n");
    expect(lines).toEqual([
      `p/d.yaml:6:9: error: collaborator ${USER_UUIDS.dave} of dashboard "Team board" is not a member of the organization (no active member has this UUID): the service would refuse to add them; \`posthog-gitops members\` lists who can be named`,
      `p/d.yaml:7:9: error: collaborator ${USER_UUIDS.erin} of dashboard "Team board" is not a member of the organization (no active member has this UUID): the service would refuse to add them; \`posthog-gitops members\` lists who can be named`,
      'p/d.yaml:8:9: error: collaborator nobody@example.com of dashboard "Team board" is not a member of the organization (no active member has this email): the service would refuse to add them; `posthog-gitops members` lists who can be named',
      "error: the plan cannot be made (3 errors)",
    ]);
    await h.clearRequests();
    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code).toBe(1);
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("the same person twice (by email and by UUID) is one error", async () => {
    h.write("p/d.yaml", board(["      - email: bob@example.com", `      - user_uuid: ${USER_UUIDS.bob}`]));
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      `p/d.yaml:7:9: error: collaborator ${USER_UUIDS.bob} of dashboard "Team board" is bob@example.com, listed already at p/d.yaml:6:9`,
    );
  });

  it("reads the members list once per organization, for every project of it", async () => {
    h.write("p/prod.yaml", board([`      - user_uuid: ${USER_UUIDS.bob}`]));
    h.write("p/staging.yaml", board(["      - email: carol@example.com"]).replace("12345", "12346"));
    await h.clearRequests();
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("+ add collaborator Bob <bob@example.com> (can_edit)");
    expect(plan.stdout).toContain("+ add collaborator Carol <carol@example.com> (can_edit)");
    expect(membersReads(await h.requests())).toBe(1);
  });

  it("a project-scoped key: one line naming the scope; UUIDs go unchecked, emails cannot be resolved", async () => {
    await h.reseed((s) => {
      s.api_keys.push({ key: "phx_project_scoped", user: 1, scopes: ["*"], scoped_teams: [12345] });
    });
    const key = { POSTHOG_API_KEY: "phx_project_scoped" };
    h.write("p/d.yaml", board([`      - user_uuid: ${USER_UUIDS.bob}`]));
    const plan = await h.cli(["plan", "p"], key);
    expect(plan.code, plan.stderr).toBe(0);
    const note = plan.stdout.split("\n").filter((l) => l.includes("not checked against"));
    expect(note).toEqual([
      "  ! warning: collaborators were not checked against the organization's members: the API key is scoped to projects, and the organization's members list is not a project endpoint (it needs a key with access to the organization and the scope 'organization_member:read')",
    ]);
    expect(plan.stdout + plan.stderr).not.toMatch(/403/);
    h.write("p/d.yaml", board(["      - email: bob@example.com"]));
    const byEmail = await h.cli(["plan", "p"], key);
    expect(byEmail.code).toBe(1);
    expect(byEmail.stderr).toContain(
      "p/d.yaml:6:9: error: collaborator bob@example.com of dashboard \"Team board\" cannot be resolved to a user: the API key is scoped to projects, and the organization's members list is not a project endpoint (it needs a key with access to the organization and the scope 'organization_member:read'); name them with user_uuid: instead",
    );
  });

  it("pull writes collaborators by email, and the pulled files plan no change", async () => {
    const pull = await h.cli(["pull", "--project", "12345", "--out", "pulled", "--kind", "dashboards"]);
    expect(pull.code, pull.stderr).toBe(0);
    const text = (await import("node:fs")).readFileSync(`${h.dir}/pulled/dashboards.yaml`, "utf8");
    expect(text).toContain("- email: carol@example.com");
    expect(text).not.toContain("user_uuid");
    const plan = await h.cli(["plan", "--detailed-exitcode", "pulled"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});

describe("posthog-gitops members", () => {
  it("lists the organization's active members: email, name, UUID", async () => {
    const out = await h.cli(["members", "--project", "12345"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout.split("\n").filter(Boolean)).toEqual([
      "EMAIL              NAME   UUID",
      `alice@example.com  Alice  ${USER_UUIDS.alice}`,
      `bob@example.com    Bob    ${USER_UUIDS.bob}`,
      `carol@example.com  Carol  ${USER_UUIDS.carol}`,
    ]);
    const json = await h.cli(["members", "--project", "12345", "--format", "json"]);
    expect(validJson("members", json.stdout).members).toEqual([
      { email: "alice@example.com", name: "Alice", uuid: USER_UUIDS.alice },
      { email: "bob@example.com", name: "Bob", uuid: USER_UUIDS.bob },
      { email: "carol@example.com", name: "Carol", uuid: USER_UUIDS.carol },
    ]);
  });

  it("a project-scoped key gets one line naming the scope, not a 403", async () => {
    await h.reseed((s) => {
      s.api_keys.push({ key: "phx_project_scoped", user: 1, scopes: ["*"], scoped_teams: [12345] });
    });
    const out = await h.cli(["members", "--project", "12345"], { POSTHOG_API_KEY: "phx_project_scoped" });
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr).toBe(
      "error: cannot list the members of project 12345's organization: the API key is scoped to projects, and the organization's members list is not a project endpoint (it needs a key with access to the organization and the scope 'organization_member:read')\n",
    );
  });
});

describe("look-alike emails", () => {
  /** Carol's account given an email that reads like kate@example.com: a Kelvin sign (U+212A) for the K. */
  async function lookAlike(): Promise<void> {
    await h.reseed((s: Json) => {
      const carol = s.users.find((u: Json) => u.uuid === USER_UUIDS.carol);
      carol.email = "\u212Aate@example.com";
    });
  }

  it("a declared email never matches a member whose email only folds to it outside ASCII", async () => {
    await lookAlike();
    h.write("p/d.yaml", board(["      - email: kate@example.com", "        level: can_edit"]));
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'error: collaborator kate@example.com of dashboard "Team board" is not a member of the organization (no active member has this email)',
    );
    expect(plan.stdout).not.toContain("add collaborator");
  });

  it("shows a member's non-ASCII email escaped, in plans and in members", async () => {
    await lookAlike();
    h.write("p/d.yaml", board([`      - user_uuid: ${USER_UUIDS.carol}`, "        level: can_edit"]));
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("+ add collaborator Carol <\\u212aate@example.com> (can_edit)");
    const markdown = await h.cli(["plan", "--format", "markdown", "p"]);
    // Markdown writes the backslash as a character reference; a reader sees \u212aate@example.com.
    expect(markdown.stdout).toContain("&#92;u212aate@");
    expect(markdown.stdout).not.toContain("\u212A");
    const members = await h.cli(["members", "--project", "12345"]);
    expect(members.stdout).toContain(`\\u212aate@example.com  Carol  ${USER_UUIDS.carol}`);
    expect(members.stdout).not.toContain("\u212A");
  });

  it("two members one email matches (ASCII case) is a plan error naming both", async () => {
    await h.reseed((s: Json) => {
      s.users.find((u: Json) => u.uuid === USER_UUIDS.carol).email = "BOB@example.com";
    });
    h.write("p/d.yaml", board(["      - email: bob@example.com", "        level: can_edit"]));
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      `collaborator bob@example.com of dashboard "Team board" matches 2 members (bob@example.com ${USER_UUIDS.bob}, BOB@example.com ${USER_UUIDS.carol}): name the right one with user_uuid:`,
    );
  });
});
