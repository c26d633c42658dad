/**
 * Port of PostHog's products/actions/backend/api/test/test_action_step_regex_validation.py (PostHog
 * revision: e2192c9, the newest stored): "repro for #96347". The tests give one step to
 * `ActionStepJSONSerializer`; the port sends it as an action's step through the API, so "valid" is a
 * 201 and "invalid" a 400 whose `attr` names the step's field (`steps__0__<field>`, where
 * `serializer.errors` has `<field>`). "Not logged" is what the emulator writes to its process's stderr
 * while it answers (it runs in this process): nothing with the pattern in it.
 */
import { describe, expect, it, vi } from "vitest";
import { citing, projectPath, usePostHog } from "../harness.js";

const FILE = "products/actions/backend/api/test/test_action_step_regex_validation.py";
const cite = citing(FILE);
const { world } = usePostHog();

const FIELDS = [
  ["url", "url_matching"],
  ["href", "href_matching"],
  ["text", "text_matching"],
] as const;

let n = 0;
const createWithStep = (step: Record<string, unknown>) =>
  world.client().post(projectPath(world.team, "actions/"), { name: `action ${n++}`, steps: [step] });

describe("TestActionStepRegexRepro", () => {
  const c = (name: string, id: string) => cite(`TestActionStepRegexRepro::${name}`, id);

  for (const [field, matching] of FIELDS) {
    it(c("test_invalid_regex_is_rejected", `${field}-${matching}`), async () => {
      // RE2 (ClickHouse) cannot compile a trailing backslash
      const response = await createWithStep({
        event: "$pageview",
        [field]: "/shardlibrary/\\d+\\",
        [matching]: "regex",
      });
      expect(response.status, `invalid ${field} regex was accepted`).toBe(400);
      expect(response.body.attr).toBe(`steps__0__${field}`);
    });
  }

  for (const [field, matching] of FIELDS) {
    it(c("test_valid_regex_is_accepted", `${field}-${matching}`), async () => {
      const response = await createWithStep({
        event: "$pageview",
        [field]: "/shardlibrary/\\d+",
        [matching]: "regex",
      });
      expect(response.status, response.text).toBe(201);
    });
  }

  for (const nonRegex of ["exact", "contains"]) {
    for (const [field, matching] of FIELDS) {
      it(c("test_non_regex_matching_unaffected", `${nonRegex}-${field}-${matching}`), async () => {
        const response = await createWithStep({
          event: "$pageview",
          [field]: "/shardlibrary/\\d+\\",
          [matching]: nonRegex,
        });
        expect(response.status, response.text).toBe(201);
      });
    }
  }

  it(cite("TestActionStepRegexRepro::test_invalid_regex_is_not_logged"), async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const response = await createWithStep({
        event: "$pageview",
        url: "/token-abc123/\\d+\\",
        url_matching: "regex",
      });
      expect(response.status).toBe(400);
    } finally {
      spy.mockRestore();
    }
    expect(written.join("")).not.toContain("token-abc123");
  });
});
