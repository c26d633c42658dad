/**
 * No variable of the environment reaches a plan or the service except through a secret field or a name
 * the file lists under `variables:` (SPEC §2, §8): every attempt below is an error at its
 * file:line:column, offline, and neither the API key nor any other value of the environment shows up
 * anywhere in the result.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/config/index.js";
import { loadConfig } from "../../src/index.js";

const KEY = "phx_exfiltration_canary_8Qk2";
const ENV = {
  POSTHOG_API_KEY: KEY,
  POSTHOG_HOST: "https://canary.example",
  AWS_SECRET_ACCESS_KEY: "aws-canary-secret",
  GITHUB_TOKEN: "ghp_canary_token",
  DB_PASSWORD: "db-canary-password",
  REGION: "us-east-1",
  TEAM: "growth",
};

async function load(text: string) {
  const result = await loadConfig({ files: [{ path: "p.yaml", text }] }, { env: ENV, mode: "plan" });
  const shown = JSON.stringify(result, (_k, v) => (typeof v === "bigint" ? String(v) : v));
  return { result, lines: result.diagnostics.map(formatDiagnostic), shown };
}

const board = (field: string) => `project: 1\ndashboards:\n  - name: Board\n    ${field}\n`;
const s3 = (config: string) =>
  `project: 1\nbatch_exports:\n  - name: e\n    destination:\n      type: S3\n      config:\n        bucket_name: b\n        region: us-east-1\n${config}`;

const attempts: [string, string, RegExp][] = [
  [
    "description",
    board('description: "key is ${POSTHOG_API_KEY}"'),
    /^p\.yaml:4:18: error: \$\{POSTHOG_API_KEY\} in description of dashboard "Board" may never be used outside a secret field/,
  ],
  [
    "name",
    `project: 1\ndashboards:\n  - name: "\${AWS_SECRET_ACCESS_KEY}"\n`,
    /^p\.yaml:3:11: error: \$\{AWS_SECRET_ACCESS_KEY\} in name of dashboard ".*" may never be used/,
  ],
  [
    "a tag",
    board('tags: [ok, "${GITHUB_TOKEN}"]'),
    /^p\.yaml:4:16: error: \$\{GITHUB_TOKEN\} in tags\[1\] of dashboard "Board" may never be used/,
  ],
  [
    "an S3 prefix",
    s3('        prefix: "${DB_PASSWORD}/"\n'),
    /^p\.yaml:9:17: error: \$\{DB_PASSWORD\} in destination\.config\.prefix of batch export "e" may never be used/,
  ],
  [
    "a nested config value",
    `project: 1\nbatch_exports:\n  - name: r\n    destination:\n      type: Redshift\n      config:\n        database: d\n        copy_inputs:\n          s3_bucket: "\${POSTHOG_HOST}"\n`,
    /^p\.yaml:9:22: error: \$\{POSTHOG_HOST\} in destination\.config\.copy_inputs\.s3_bucket of batch export "r" may never be used/,
  ],
  [
    "the project",
    "project: ${POSTHOG_API_KEY}\ndashboards: []\n",
    /^p\.yaml:1:10: error: project must be an integer/,
  ],
  [
    "an unlisted ordinary name",
    board('description: "team ${TEAM}"'),
    /^p\.yaml:4:18: error: \$\{TEAM\} in description of dashboard "Board" is not read from the environment: list TEAM under `variables:`/,
  ],
  [
    "${constructor}",
    board('description: "${constructor}"'),
    /is not read from the environment: list constructor under `variables:`/,
  ],
  [
    "${__proto__}",
    board('description: "${__proto__}"'),
    /is not read from the environment: list __proto__ under `variables:`/,
  ],
  [
    "a listed POSTHOG_* name",
    `${board('description: "${POSTHOG_API_KEY}"')}variables: [POSTHOG_API_KEY]\n`,
    /^p\.yaml:5:13: error: variables: POSTHOG_API_KEY may never be used outside a secret field/,
  ],
  [
    "a listed credential-looking name",
    `${board('description: "${DB_PASSWORD}"')}variables: [DB_PASSWORD]\n`,
    /^p\.yaml:5:13: error: variables: DB_PASSWORD may never be used outside a secret field/,
  ],
  [
    "the tool's key in a secret field",
    s3(
      "        prefix: p/\n        aws_access_key_id: ${POSTHOG_API_KEY}\n        aws_secret_access_key: ${AWS_SECRET_ACCESS_KEY}\n",
    ),
    /^p\.yaml:10:28: error: destination\.config\.aws_access_key_id of batch export "e" refers to POSTHOG_API_KEY: this tool's own variables \(POSTHOG_\*\) never go into a field/,
  ],
  [
    "an undefined listed name",
    `${board('description: "${NOT_SET_ANYWHERE}"')}variables: [NOT_SET_ANYWHERE]\n`,
    /^p\.yaml:4:18: error: environment variable NOT_SET_ANYWHERE is not set/,
  ],
  [
    "a malformed reference",
    board('description: "${POSTHOG_API_KEY"'),
    /^p\.yaml:4:18: error: malformed reference/,
  ],
];

describe("exfiltration attempts through ${NAME}", () => {
  it.each(attempts)("%s: refused at its position, offline", async (_label, text, message) => {
    const { result, lines, shown } = await load(text);
    expect(result.ok).toBe(false);
    expect(lines.join("\n")).toMatch(new RegExp(message.source, "m"));
    for (const value of Object.values(ENV).filter((v) => v.length > 12)) expect(shown).not.toContain(value);
  });

  it("unicode look-alikes of ${ are plain text: nothing is looked up", async () => {
    const lookAlikes = [
      "＄{POSTHOG_API_KEY}",
      "$｛POSTHOG_API_KEY｝",
      "﹩{POSTHOG_API_KEY}",
      "$\u200b{POSTHOG_API_KEY}",
    ];
    const { result, shown } = await load(board(`description: "${lookAlikes.join(" ")}"`));
    expect(result.diagnostics).toEqual([]);
    const [project] = result.projects;
    const dashboard = project?.objects.dashboard?.[0] as { description?: string } | undefined;
    expect(dashboard?.description).toBe(lookAlikes.join(" "));
    expect(shown).not.toContain(KEY);
  });

  it("a listed ordinary name is read; $${ stays a literal ${", async () => {
    const { result } = await load(
      `${board('description: "team ${TEAM}, literal $${POSTHOG_API_KEY}"')}variables: [TEAM]\n`,
    );
    expect(result.diagnostics).toEqual([]);
    const board0 = result.projects[0]?.objects.dashboard?.[0] as { description?: string };
    expect(board0.description).toBe("team growth, literal ${POSTHOG_API_KEY}");
  });
});
