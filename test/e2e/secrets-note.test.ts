/**
 * The note about unset secret variables (issue 21): it concerns what `apply` will send, so only `plan`
 * and `apply` print it, `--quiet` silences it, and in GitHub Actions it is one annotation per run at
 * most (the plan's; the action's apply step runs `apply --plan` right after, which does not repeat it).
 * validate and the operations commands, which send no secret, say nothing about it.
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

  it("is printed once by plan and apply, and not with --quiet", async () => {
    await created();
    for (const args of [["plan"], ["apply", "--auto-approve"]]) {
      const loud = await h.cli(args);
      expect(loud.code, loud.stderr).toBe(0);
      expect(loud.stderr.split("\n").filter((l) => l.includes(NOTE))).toEqual([
        `note: ${NOTE} (used by 1 secret field); apply will need it`,
      ]);
      const quiet = await h.cli([...args, "--quiet"]);
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.stdout + quiet.stderr).not.toContain("not set in this environment");
    }
  });

  it("is one annotation in GitHub Actions: plan annotates, the apply of its saved plan does not", async () => {
    await created();
    const actions = { GITHUB_ACTIONS: "true" };
    const plan = await h.cli(["plan", "--out", "plan.json"], actions);
    expect(plan.code, plan.stderr).toBe(0);
    expect(notices(plan.stderr)).toHaveLength(1);
    const apply = await h.cli(["apply", "--auto-approve", "--plan", "plan.json"], actions);
    expect(apply.code, apply.stderr).toBe(0);
    expect(notices(apply.stderr)).toEqual([]);
    expect(apply.stderr).toContain(NOTE);
  });
});
