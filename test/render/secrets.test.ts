/**
 * No format may show a secret: every mention of a secret's variable outside the JSON's SecretRefs is
 * exactly `(secret from $NAME)`, and a secret value that reached a plan by mistake never prints.
 */
import { describe, expect, it } from "vitest";
import { SecretValue } from "../../src/config/secret.js";
import type { Plan } from "../../src/plan/types.js";
import { planAnnotations } from "../../src/render/github.js";
import { renderJson } from "../../src/render/json.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { renderText } from "../../src/render/text.js";
import { act, at, batchExport, buildPlan, mixedPlan, SECRET_VARIABLE, VOCAB } from "./fixtures.js";

const VALUE = "sk-live-ZQX-9f3a77c1d0e2-do-not-print";

type Format = "text" | "color" | "markdown" | "smallMarkdown" | "annotations" | "json";

function outputs(plan: Plan): Record<Format, string> {
  return {
    text: renderText(plan, { color: false, vocab: VOCAB }),
    color: renderText(plan, { color: true, vocab: VOCAB }),
    markdown: renderMarkdown(plan, { vocab: VOCAB }),
    smallMarkdown: renderMarkdown(plan, { vocab: VOCAB, maxLength: 3000 }),
    annotations: planAnnotations(plan, VOCAB),
    json: renderJson(plan),
  };
}

/** The plan of the fixtures, plus SecretValues smuggled into every place a value can sit. */
function leakyPlan(): Plan {
  const secret = new SecretValue(`\${${SECRET_VARIABLE}}`, [SECRET_VARIABLE], VALUE);
  const plan = mixedPlan();
  plan.actions.push(
    act("create", batchExport("Smuggled", at("x.yaml", 2)), {
      after: { destination: { type: "S3", config: { aws_secret_access_key: secret } } },
      warnings: [],
    }),
    act("update", batchExport("Smuggled 2", { id: "u-2", ...at("y.yaml", 2) }), {
      before: { token: secret },
      after: { token: secret },
      changes: [
        { path: "destination.config.token", before: secret, after: secret },
        { path: "destination.config.key", after: secret, secret: true },
      ],
    }),
  );
  return plan;
}

describe("secrets in every format", () => {
  it("mentions a secret's variable only as (secret from $NAME) outside JSON SecretRefs", () => {
    for (const [format, text] of Object.entries(outputs(mixedPlan()))) {
      const rest =
        format === "json"
          ? text.replaceAll(`"$secret": "\${${SECRET_VARIABLE}}"`, "").replaceAll(`"${SECRET_VARIABLE}"`, "")
          : text.replaceAll(`(secret from $${SECRET_VARIABLE})`, "");
      expect([format, rest.includes(SECRET_VARIABLE)]).toEqual([format, false]);
    }
    expect(
      outputs(mixedPlan()).text.match(/\(secret from \$ZQX_SEEDED_S3_SECRET_ACCESS_KEY\)/g),
    ).toHaveLength(2);
  });

  it("never prints a secret value that reached the plan by mistake", () => {
    for (const [format, text] of Object.entries(outputs(leakyPlan()))) {
      expect([format, text.includes(VALUE), text.includes("ZQX-9f3a")]).toEqual([format, false, false]);
    }
    const text = renderText(leakyPlan(), { color: false, vocab: VOCAB });
    expect(text).toContain(`destination.config.token: (secret from $${SECRET_VARIABLE})`);
    expect(text).toContain(`destination.config.aws_secret_access_key: (secret from $${SECRET_VARIABLE})`);
  });

  it("does not print before/after of a change marked secret, whatever they hold", () => {
    const plan = buildPlan([
      act("update", batchExport("E", { id: "e", ...at("e.yaml", 1) }), {
        before: {},
        after: {},
        changes: [{ path: "destination.config.password", before: VALUE, after: VALUE, secret: true }],
      }),
    ]);
    const all = outputs(plan);
    for (const format of ["text", "color", "markdown", "smallMarkdown", "annotations"] as const) {
      expect([format, all[format].includes(VALUE)]).toEqual([format, false]);
    }
    expect(all.text).toContain("destination.config.password: (secret)");
  });
});
