/**
 * The note about unset secret variables (issue 21, issue 30): it concerns what `apply` will send, so
 * only `plan` prints it, and only for the secrets that plan sends (a create, a rotation); `--quiet`
 * silences it, and in GitHub Actions it is one annotation. `apply` refuses to send a secret whose
 * variable is unset, naming it, and otherwise says nothing; validate and the operations commands, which
 * send no secret, say nothing about it.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator.js";

const h = useEmulator({ env: { NO_COLOR: "1", POSTHOG_PROJECT_ID: "12345" } });

const NOTE = "secret variable $PARTNER_TOKEN is not set in this environment";
const CONFIG = [
  "project: 12345",
  "batch_exports:",
  "  - name: Events to S3",
  "    paused: false",
  "  - name: to-partner",
  "    model: events",
  "    interval: hour",
  "    paused: true",
  "    destination:",
  "      type: HTTP",
  "      config:",
  "        url: https://us.i.posthog.com/batch/",
  "        token: ${PARTNER_TOKEN}",
  "",
].join("\n");

/** The export with the secret is created first (with its variable set): later applies need not send it. */
async function created(): Promise<void> {
  h.write("posthog/b.yaml", CONFIG);
  const first = await h.cli(["apply", "--auto-approve", "--quiet"], {
    PARTNER_TOKEN: "partner-token-value-1",
  });
  expect(first.code, first.stderr).toBe(0);
  h.write("posthog/b.yaml", `project: 12345\ndashboards:\n  - name: Noted\n${CONFIG.slice(15)}`);
}

const notices = (text: string) =>
  text.split("\n").filter((l) => l.startsWith("::notice") && l.includes(NOTE));

describe("the unset-secrets note", () => {
  it("is not printed by validate and the operations commands", async () => {
    h.write("posthog/b.yaml", CONFIG);
    const commands = [
      ["validate"],
      ["validate", "--format", "json"],
      ["status"],
      ["runs", "Events to S3"],
      ["logs", "Events to S3"],
      ["events", "--limit", "1"],
      ["members"],
    ];
    for (const args of commands) {
      const out = await h.cli(args, { GITHUB_ACTIONS: "true" });
      expect(out.code, `${args.join(" ")}: ${out.stderr}`).toBe(0);
      expect(out.stdout + out.stderr, args.join(" ")).not.toContain("not set in this environment");
    }
    const validate = await h.cli(["validate"]);
    expect(validate.stderr).toBe("1 file, 2 objects: valid\n");
  });

  it("is printed by plan only for the secrets it sends, and not with --quiet", async () => {
    // Nothing created yet: the plan creates the export, and so sends its token.
    h.write("posthog/b.yaml", CONFIG);
    const sends = await h.cli(["plan"]);
    expect(sends.code, sends.stderr).toBe(0);
    expect(sends.stderr.split("\n").filter((l) => l.includes(NOTE))).toEqual([
      `note: ${NOTE} (this plan sends 1 secret field); apply will need it`,
    ]);
    expect((await h.cli(["plan", "--quiet"])).stderr).not.toContain("not set in this environment");
    // apply refuses to send it, naming it.
    const refused = await h.cli(["apply", "--auto-approve"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "the plan sends secrets from $PARTNER_TOKEN, which is not set; nothing was applied",
    );
    // Created (with the variable set): the plans that follow do not send the token, and say nothing.
    await created();
    for (const args of [["plan"], ["apply", "--auto-approve"]]) {
      const out = await h.cli(args);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout + out.stderr, args[0]).not.toContain("not set in this environment");
    }
  });

  it("is one annotation in GitHub Actions: plan annotates, the apply of its saved plan does not", async () => {
    h.write("posthog/b.yaml", CONFIG);
    const actions = { GITHUB_ACTIONS: "true" };
    const plan = await h.cli(["plan", "--out", "plan.json"], actions);
    expect(plan.code, plan.stderr).toBe(0);
    expect(notices(plan.stderr)).toHaveLength(1);
    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"], actions);
    expect(apply.code).toBe(1);
    expect(notices(apply.stderr)).toEqual([]);
  });
});
