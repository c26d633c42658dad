/**
 * The reviewer's plan against the emulator, with the real CLI in-process: collaborators named by email
 * (from data already read, else one members list), drift named with --base in a real git repository,
 * --target warning that the plan is partial, and apply's lines in the plan's own words.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { USER_UUIDS, useEmulator } from "../support/emulator.js";
import { GIT_ENV as REPO_ENV } from "../support/git-repo.js";

const h = useEmulator();
/** git needs PATH (and writes nothing outside the test folder). */
const GIT_ENV = { PATH: process.env.PATH, HOME: process.env.HOME };

function git(...args: string[]): string {
  return execFileSync("git", args, { cwd: h.dir, encoding: "utf8", env: REPO_ENV });
}

function commitAll(message: string): void {
  git("add", "-A");
  git("commit", "-q", "-m", message);
}

const MARKETING = [
  "project: 12345",
  "dashboards:",
  "  - name: Marketing Overview",
  "    id: 2",
  "    restriction_level: only_collaborators",
  "    collaborators:",
  `      - user_uuid: ${USER_UUIDS.carol}`,
  "",
].join("\n");

describe("collaborators in words", () => {
  it("names a collaborator found nowhere else from one members list, and apply says what the plan said", async () => {
    h.write("p/d.yaml", MARKETING);
    await h.clearRequests();
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("restriction_level: everyone → only_collaborators");
    expect(plan.stdout).toContain("+ add collaborator Carol <carol@example.com> (can_edit)");
    expect(plan.stdout).not.toContain(USER_UUIDS.carol);
    const members = (await h.requests()).filter((r) => r.path.includes("/members"));
    expect(members).toHaveLength(1);
    expect((await h.requests()).every((r) => r.method === "GET")).toBe(true);

    const json = JSON.parse((await h.cli(["plan", "p", "--format", "json"])).stdout);
    expect(json.people).toEqual({ [USER_UUIDS.carol]: { name: "Carol", email: "carol@example.com" } });
    const add = json.actions.find((a: { action: string }) => a.action === "add_collaborator");
    expect(add.after).toEqual({ user_uuid: USER_UUIDS.carol, level: 37 });

    const md = (await h.cli(["plan", "p", "--format", "markdown"])).stdout;
    expect(md).toContain("**+ add collaborator** Carol &lt;carol@&#8203;example.com&gt; (`can_edit`)");
    expect(md).toContain("- `restriction_level`: `everyone` → `only_collaborators`");

    const apply = await h.cli(["apply", "--auto-approve", "p"]);
    expect(apply.code, apply.stderr).toBe(0);
    const lines = apply.stdout.split("\n");
    expect(lines).toContain('✓ ~ update · dashboard "Marketing Overview" (id 2) in project 12345');
    expect(lines).toContain(
      '✓ + add collaborator Carol <carol@example.com> (can_edit) · dashboard "Marketing Overview" (id 2) in project 12345',
    );
  });

  it("reads the members list once, to check the collaborator it adds, and names people from it", async () => {
    // Revenue (id 3) has carol as collaborator; bob is not on it: adding him needs the members list,
    // which checks he is a member (SPEC §2) and, read once, names him too.
    h.write(
      "p/d.yaml",
      [
        "project: 12345",
        "dashboards:",
        "  - name: Revenue",
        "    restriction_level: only_collaborators",
        "    collaborators:",
        `      - user_uuid: ${USER_UUIDS.bob}`,
        "",
      ].join("\n"),
    );
    await h.clearRequests();
    const plan = await h.cli(["plan", "p"]);
    expect(plan.stdout).toContain("- remove collaborator Carol <carol@example.com> (can_edit)");
    expect(plan.stdout).toContain("+ add collaborator Bob <bob@example.com> (can_edit)");
    expect((await h.requests()).filter((r) => r.path.includes("/members"))).toHaveLength(1);
  });

  it("shows the UUID when the members list cannot be read", async () => {
    const state = await h.state();
    for (const key of state.api_keys) key.scopes = ["dashboard:read", "project:read", "organization:read"];
    await h.seed(state);
    h.write("p/d.yaml", MARKETING);
    const plan = await h.cli(["plan", "p"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`+ add collaborator ${USER_UUIDS.carol} (can_edit)`);
  });
});

describe("--target", () => {
  it("warns that the plan is partial, on stderr and in the markdown; fails when it matches nothing", async () => {
    h.write(
      "p/d.yaml",
      "project: 12345\ndashboards:\n  - name: Product KPIs\n    pinned: false\n  - name: Revenue\n    pinned: true\n",
    );
    const plan = await h.cli(["plan", "p", "--target", "dashboard/#1", "--format", "markdown"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain("Warning: this plan is partial: --target dashboard/#1 narrowed it");
    expect(plan.stdout).toContain("> **Partial plan:** narrowed with `--target dashboard/#1`.");
    expect(plan.stdout).toContain("<b>Product KPIs</b>");
    expect(plan.stdout).not.toContain("<b>Revenue</b>");

    const glob = await h.cli(["plan", "p", "--target", "dashboard/R*"]);
    expect(glob.stdout).toContain('dashboard "Revenue" (id 3)');
    expect(glob.stdout).not.toContain("Product KPIs");

    const none = await h.cli(["plan", "p", "--target", "dashboard/Nothing*"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      "--target dashboard/Nothing*: no declared or live dashboard has a name matching it",
    );
    expect((await h.cli(["plan", "p"])).stderr).not.toContain("partial");
    // apply shows the warning with the plan it prints (stdout, its human transcript).
    const apply = await h.cli(["apply", "p", "--auto-approve", "--target", "dashboard/Revenue"]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain("Warning: this plan is partial: --target dashboard/Revenue narrowed it");
  });
});

describe("drift with --base", () => {
  const KPIS =
    "project: 12345\ndashboards:\n  - name: Product KPIs\n    description: Weekly product health\n  - name: Revenue\n    description: Finance only\n";

  it("labels a change made in the service, not one made in the files", async () => {
    h.write("p/d.yaml", KPIS);
    git("init", "-q");
    commitAll("base");
    // In the UI: Product KPIs' description edited. In the files: Revenue's changed.
    expect(
      (await h.api("PATCH", "/api/projects/12345/dashboards/1/", { description: "edited in the UI" })).status,
    ).toBe(200);
    h.write("p/d.yaml", KPIS.replace("Finance only", "Finance and board"));

    const text = await h.cli(["plan", "p", "--base", "HEAD"], GIT_ENV);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      '~ dashboard "Product KPIs" (id 1) · p/d.yaml:3 · changed outside posthog-gitops',
    );
    expect(text.stdout).toMatch(/~ dashboard "Revenue" \(id 3\) · p\/d\.yaml:5\n/);
    expect(text.stdout).toContain(
      "1 object changed outside posthog-gitops: its declaration is the same at HEAD",
    );

    const json = JSON.parse(
      (await h.cli(["plan", "p", "--base", "HEAD", "--format", "json"], GIT_ENV)).stdout,
    );
    expect(json.base).toBe("HEAD");
    const byName = Object.fromEntries(
      json.actions.map((a: { object: { name: string } }) => [a.object.name, a]),
    );
    expect(byName["Product KPIs"].drift).toBe(true);
    expect(byName.Revenue.drift).toBeUndefined();

    const md = (await h.cli(["plan", "p", "--base", "HEAD", "--format", "markdown"], GIT_ENV)).stdout;
    expect(md).toContain("> [!IMPORTANT]\n> **1 object changed outside posthog-gitops**");
    expect(md).toContain(
      "<summary><code>~</code> dashboard <b>Product KPIs</b> (id 1): update · ⚠️ changed outside posthog-gitops</summary>",
    );

    const plain = await h.cli(["plan", "p"], GIT_ENV);
    expect(plain.stdout).not.toContain("changed outside");
    const plainJson = JSON.parse((await h.cli(["plan", "p", "--format", "json"], GIT_ENV)).stdout);
    expect(plainJson.base).toBeUndefined();
    expect(plainJson.actions.some((a: { drift?: boolean }) => "drift" in a)).toBe(false);
  });

  it("a comment or a reordering is not a change of the declaration; a new file is", async () => {
    h.write("p/d.yaml", KPIS);
    git("init", "-q");
    commitAll("base");
    await h.api("PATCH", "/api/projects/12345/dashboards/1/", { description: "edited in the UI" });
    h.write(
      "p/d.yaml",
      `# reviewed\n${KPIS.replace("    description: Weekly product health\n", "    description: Weekly product health # same\n")}`,
    );
    h.write("p/new.yaml", "project: 12345\ndashboards:\n  - name: Brand new\n");
    const text = await h.cli(["plan", "p", "--base", "HEAD"], GIT_ENV);
    expect(text.stdout).toContain(
      'dashboard "Product KPIs" (id 1) · p/d.yaml:4 · changed outside posthog-gitops',
    );
    expect(text.stdout).toMatch(/\+ dashboard "Brand new" · p\/new\.yaml:3\n/);
  });

  it("a dashboard created in the UI and pruned is drift; one whose item the change removed is not", async () => {
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n  - name: Revenue\n");
    git("init", "-q");
    commitAll("base");
    h.write("p/d.yaml", "project: 12345\ndashboards:\n  - name: Product KPIs\n");
    const text = await h.cli(
      ["plan", "p", "--prune", "--force", "--base", "HEAD", "--format", "json"],
      GIT_ENV,
    );
    expect(text.code, text.stderr).toBe(0);
    const deletes = JSON.parse(text.stdout).actions.filter(
      (a: { action: string }) => a.action === "soft_delete",
    );
    const drift = Object.fromEntries(
      deletes.map((a: { object: { name: string }; drift?: boolean }) => [a.object.name, a.drift === true]),
    );
    expect(drift).toEqual({ "Marketing Overview": true, "Onboarding Funnel": true, Revenue: false });
  });

  it("refuses a revision git does not know, and a folder outside git, before reading the service", async () => {
    h.write("p/d.yaml", KPIS);
    await h.clearRequests();
    const outside = await h.cli(["plan", "p", "--base", "HEAD"], GIT_ENV);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain("--base needs a git repository");
    git("init", "-q");
    commitAll("base");
    const unknown = await h.cli(["plan", "p", "--base", "origin/nope"], GIT_ENV);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("--base origin/nope: git does not know this revision here");
    const option = await h.cli(["plan", "p", "--base=--output=x"], GIT_ENV);
    expect(option.code).toBe(1);
    expect(option.stderr).toContain("is not a git revision");
    expect(await h.requests()).toEqual([]);
  });

  it("apply shows the labelled plan; apply --plan refuses --base", async () => {
    h.write("p/d.yaml", KPIS);
    git("init", "-q");
    commitAll("base");
    await h.api("PATCH", "/api/projects/12345/dashboards/1/", { description: "edited in the UI" });
    const apply = await h.cli(["apply", "p", "--auto-approve", "--base", "HEAD"], GIT_ENV);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain("· changed outside posthog-gitops");
    expect(apply.stdout).toContain('✓ ~ update · dashboard "Product KPIs" (id 1) in project 12345');
    const refused = await h.cli(["apply", "--auto-approve", "--plan", "x.json", "--base", "HEAD"], GIT_ENV);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("give --base to plan instead");
  });
});
