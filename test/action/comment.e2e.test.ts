/**
 * The sticky pull-request comment, end to end: the bundle run as an action (runner.ts) against the
 * emulator and a fake GitHub API on loopback (fake-github.ts). One comment per header, created once and
 * updated in place, replaced by a note when the plan fails, found among many pages, never someone
 * else's; none for validate or outside pull requests; only the GitHub token goes to GitHub.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { systemClock } from "posthog-gitops-shared/clock";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMMENT_LIMIT, commentBody, commentMarker, nextLink } from "../../src/action/comment.js";
import { type Json, useEmulator } from "../support/emulator.js";
import { findLeaks, readings } from "../support/leak-scan.js";
import { BOT_LOGIN, type FakeGitHub, startFakeGitHub } from "./fake-github.js";
import { act, KEY, ROOT, SECRETS } from "./harness.js";
import { GITHUB_TOKEN } from "./runner.js";

const PULL = 7;
const PR_EVENT = { name: "pull_request", payload: { action: "synchronize", pull_request: { number: PULL } } };

// The action runs in a child process on the system clock, so the emulator does too.
const h = useEmulator({ apiKey: KEY, rateLimit: "none", clock: systemClock });
let github: FakeGitHub;
let workspace: string;

beforeEach(async () => {
  // Two comments a page, so a few comments already make the search read several pages.
  github = await startFakeGitHub({ token: GITHUB_TOKEN, pageSize: 2 });
  workspace = join(h.dir, "repo");
  cpSync(join(ROOT, "test/fixtures/single-project/production"), join(workspace, "posthog"), {
    recursive: true,
  });
});
afterEach(async () => {
  await github.close();
});

function run(inputs: Record<string, string>, event: { name: string; payload: unknown } = PR_EVENT) {
  return act({
    dir: h.dir,
    workspace,
    inputs: { host: h.url, "api-key": KEY, comment: "true", ...inputs },
    env: { GITHUB_API_URL: github.url, GITHUB_GRAPHQL_URL: `${github.url}/graphql` },
    event,
  });
}

const ours = () => (github.comments.get(PULL) ?? []).filter((c) => c.user.login === BOT_LOGIN);
const writes = () => github.requests.filter((r) => r.method !== "GET" && r.path !== "/graphql");

describe("the sticky comment", () => {
  it("is created once, then updated in place on the next run", async () => {
    github.seed(PULL, "Looks good to me");
    github.seed(PULL, "Please also add the staging project");
    const first = await run({ command: "plan" });
    expect(first.code, first.stderr).toBe(0);
    expect(ours()).toHaveLength(1);
    const comment = ours()[0]!;
    expect(comment.body).toBe(`${commentMarker("posthog-gitops")}\n${first.markdown}`);
    expect(first.stdout).toContain(`Created the pull-request comment ${comment.html_url}`);

    // The next push changes the plan: the same comment shows the new one.
    const file = join(workspace, "posthog/dashboards.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("name: Product usage", "name: Product adoption"));
    const second = await run({ command: "plan" });
    expect(second.code, second.stderr).toBe(0);
    expect(ours()).toEqual([expect.objectContaining({ id: comment.id })]);
    expect(ours()[0]?.body).toContain("Product adoption");
    expect(second.stdout).toContain("Updated the pull-request comment");
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /repos/acme/analytics-config/issues/${PULL}/comments`,
      `PATCH /repos/acme/analytics-config/issues/comments/${comment.id}`,
    ]);
    // The comment list was read page by page (three comments, two a page) on the second run.
    expect(github.requests.filter((r) => r.method === "GET").map((r) => r.path)).toContain(
      `/repos/acme/analytics-config/issues/${PULL}/comments?per_page=2&page=2`,
    );
  });

  it("keeps one comment per header", async () => {
    await run({ command: "plan", "comment-header": "production" });
    await run({ command: "plan", "comment-header": "staging" });
    await run({ command: "plan", "comment-header": "production" });
    expect(ours().map((c) => c.body.split("\n")[0])).toEqual([
      commentMarker("production"),
      commentMarker("staging"),
    ]);
    expect(writes().map((r) => r.method)).toEqual(["POST", "POST", "PATCH"]);
  });

  it("replaces the plan with a note when the plan fails, and the step fails", async () => {
    await run({ command: "plan" });
    const failed = await run({ command: "plan", "api-key": `${KEY}x` });
    expect(failed.code).toBe(1);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body).toBe(
      `${commentMarker("posthog-gitops")}\n### posthog-gitops plan failed\n\nThe plan could not be made (exit 1): see the [job log](https://github.com/acme/analytics-config/actions/runs/4242).\n`,
    );
  });

  it("comments after apply too, with the plan that was applied", async () => {
    const r = await run({ command: "apply" });
    expect(r.code, r.stderr).toBe(0);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body).toContain("**Plan: ");
  });

  it("never edits someone else's comment, even one carrying the marker", async () => {
    const forged = github.seed(PULL, `${commentMarker("posthog-gitops")}\nNothing to see here`);
    const r = await run({ command: "plan" });
    expect(r.code, r.stderr).toBe(0);
    expect(forged.body).toBe(`${commentMarker("posthog-gitops")}\nNothing to see here`);
    expect(ours()).toHaveLength(1);
  });

  it("is not made for validate, nor outside pull requests, nor when not asked for", async () => {
    const validate = await run({ command: "validate" });
    const push = await run({ command: "plan" }, { name: "push", payload: { ref: "refs/heads/main" } });
    const off = await run({ command: "plan", comment: "false" });
    for (const r of [validate, push, off]) expect(r.code, r.stderr).toBe(0);
    expect(push.stdout).toContain("Not a pull-request event: no comment to keep.");
    expect(github.requests).toEqual([]);
  });

  it("sends GitHub the token and the markdown, never the PostHog key", async () => {
    await run({ command: "plan" });
    expect(github.requests.length).toBeGreaterThan(2);
    for (const r of github.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${GITHUB_TOKEN}`);
      expect(JSON.stringify(r)).not.toContain(KEY);
    }
  });

  it("holds no secret of a live name as GitHub shows it, though markdown escapes its `_`", async () => {
    // The staging files read the secret (production's need none since its legacy export is written
    // in its migrated form).
    cpSync(join(ROOT, "test/fixtures/single-project/staging"), join(workspace, "posthog/staging"), {
      recursive: true,
    });
    const leak = `Leak ${KEY} and ${SECRETS.PRODUCTION_PROJECT_TOKEN}`;
    await h.reseed<Json>((state) => {
      state.dashboards.push({ id: 900, team_id: 12345, name: leak, tags: [] });
    });
    const r = await run({ command: "plan", prune: "true" });
    expect(r.code, r.stderr).toBe(0);
    const body = ours()[0]?.body ?? "";
    const env = { POSTHOG_API_KEY: KEY, PRODUCTION_PROJECT_TOKEN: SECRETS.PRODUCTION_PROJECT_TOKEN };
    const shown = [
      { label: "the comment", env, stdout: body, stderr: "" },
      // The runner swallows its `::add-mask::` commands: they are not in the log.
      { label: "the log", env, stdout: r.stdout.replace(/^::add-mask::.*$/gm, ""), stderr: r.stderr },
      { label: "the job summary", env, stdout: r.summary, stderr: "" },
    ];
    expect(findLeaks(shown, [])).toEqual([]);
    expect(readings(body).join("\n")).toContain(
      "Leak (secret from $POSTHOG_API_KEY) and (secret from $PRODUCTION_PROJECT_TOKEN)",
    );
  });

  it("a refused comment fails the step with a reason, after setting the outputs", async () => {
    github.failWith(403);
    const r = await run({ command: "plan" });
    expect(r.code).toBe(1);
    expect(r.outputs["has-changes"]).toBe("true");
    const error = r.commands.find((c) => c.command === "error");
    expect(error?.value).toMatch(
      /^could not keep the pull-request comment: GitHub answered POST \/graphql with 403/,
    );
    expect(error?.value).toContain("pull-requests: write");
  });
});

describe("the comment's text", () => {
  it("marks the header so that it cannot end the hidden comment", () => {
    expect(commentMarker("posthog-gitops")).toBe("<!-- posthog-gitops-comment: posthog-gitops -->");
    const sly = commentMarker("x --> <img src=y>\n::error::z");
    expect(sly.slice(4, -4)).not.toMatch(/-->|[<>\n]/);
  });

  it("is the marker and the markdown, cut by whole sections when the marker tips it over the limit", () => {
    const section = (n: number) =>
      `<details><summary>object ${n}</summary>\n\n${"x".repeat(80)}\n\n</details>`;
    const markdown = `<!-- posthog-gitops plan: 1 -->\n### plan\n\n#### Changes\n\n${[1, 2, 3, 4].map(section).join("\n\n")}\n`;
    expect(commentBody("h", markdown)).toBe(`${commentMarker("h")}\n${markdown}`);
    const limit = `${commentMarker("h")}\n${markdown}`.length - 10;
    const cut = commentBody("h", markdown, limit);
    expect(cut.length).toBeLessThanOrEqual(limit);
    expect(cut).toContain("object 2");
    expect(cut).not.toContain("object 4");
    expect(cut).toMatch(/_\d more sections? left out to fit this comment/);
    expect(cut.match(/<details>/g)?.length).toBe(cut.match(/<\/details>/g)?.length);
    expect(commentBody("h", "x".repeat(COMMENT_LIMIT)).length).toBeLessThanOrEqual(COMMENT_LIMIT);
  });

  it("follows only a next link", () => {
    expect(
      nextLink(
        '<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=9>; rel="last"',
      ),
    ).toBe("https://api.github.com/x?page=2");
    expect(nextLink('<https://api.github.com/x?page=1>; rel="prev"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
});
