/**
 * The sticky pull-request comment: one comment per `comment-header`, found by a hidden marker line among
 * the comments this token's account wrote, updated in place, else created. GitHub's REST API for the
 * comments, and one GraphQL query for the token's own login (REST has no "who am I" that installation
 * tokens may call), as marocchino/sticky-pull-request-comment did. Only the GitHub token is sent.
 */

import { cut } from "../text.js";

/** GitHub refuses a comment body longer than this (characters). */
export const COMMENT_LIMIT = 65_536;

export interface CommentTarget {
  /** GITHUB_API_URL, e.g. https://api.github.com. */
  apiUrl: string;
  /** GITHUB_GRAPHQL_URL, e.g. https://api.github.com/graphql. */
  graphqlUrl: string;
  token: string;
  /** owner/name (GITHUB_REPOSITORY). */
  repository: string;
  pullNumber: number;
  header: string;
}

export interface CommentResult {
  action: "created" | "updated";
  id: number;
  url: string;
}

type Fetch = typeof fetch;

interface IssueComment {
  id: number;
  body?: string;
  html_url?: string;
  user?: { login?: string } | null;
}

/** How many pages of 100 comments are read at most while looking for the sticky one. */
const MAX_PAGES = 100;
const TIMEOUT_MS = 30_000;

/** The hidden line that tells this header's comment apart; the header is URI-encoded so it cannot end the HTML comment. */
export function commentMarker(header: string): string {
  return `<!-- posthog-gitops-comment: ${encodeURIComponent(header)} -->`;
}

/**
 * The comment: the marker line, then the markdown as the CLI rendered (and escaped) it. The renderer
 * already fits a plan to GitHub's limit; when the marker line tips it over, whole object sections are
 * left out from the end, and a last line says so.
 */
export function commentBody(header: string, markdown: string, limit = COMMENT_LIMIT): string {
  const marker = commentMarker(header);
  let text = markdown.endsWith("\n") ? markdown : `${markdown}\n`;
  let dropped = 0;
  const body = () =>
    dropped === 0
      ? `${marker}\n${text}`
      : `${marker}\n${text}\n_${dropped} more ${dropped === 1 ? "section" : "sections"} left out to fit this comment: see the job summary for the whole plan._\n`;
  while (body().length > limit) {
    const start = text.lastIndexOf("\n\n<details>");
    const end = start < 0 ? -1 : text.indexOf("</details>", start);
    if (end < 0) {
      return `${cut(body(), limit - 1)}\n`;
    }
    text = text.slice(0, start) + text.slice(end + "</details>".length);
    dropped += 1;
  }
  return body();
}

/** Finds this header's comment on the pull request and updates it, or creates it. */
export async function upsertComment(
  target: CommentTarget,
  markdown: string,
  fetchImpl: Fetch = fetch,
): Promise<CommentResult> {
  const api = new GitHubApi(target, fetchImpl);
  const [owner, name] = target.repository.split("/");
  if (!owner || !name || target.repository.split("/").length !== 2) {
    throw new Error(`GITHUB_REPOSITORY is not owner/name: ${JSON.stringify(target.repository)}`);
  }
  const repo = `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  const body = commentBody(target.header, markdown);
  const marker = commentMarker(target.header);
  const me = botless(await api.viewerLogin());
  const mine = await api.findComment(
    `/repos/${repo}/issues/${target.pullNumber}/comments?per_page=100`,
    (c) => botless(c.user?.login ?? "") === me && (c.body ?? "").split(/\r?\n/).includes(marker),
  );
  if (mine) {
    const updated = await api.send<IssueComment>("PATCH", `/repos/${repo}/issues/comments/${mine.id}`, {
      body,
    });
    return { action: "updated", id: updated.id, url: updated.html_url ?? "" };
  }
  const created = await api.send<IssueComment>(
    "POST",
    `/repos/${repo}/issues/${target.pullNumber}/comments`,
    {
      body,
    },
  );
  return { action: "created", id: created.id, url: created.html_url ?? "" };
}

/** GraphQL names a GitHub App's bot `github-actions`, REST `github-actions[bot]`. */
const botless = (login: string) => login.replace(/\[bot\]$/, "").toLowerCase();

class GitHubApi {
  private readonly apiUrl: string;

  constructor(
    private readonly target: CommentTarget,
    private readonly fetchImpl: Fetch,
  ) {
    this.apiUrl = target.apiUrl.replace(/\/+$/, "");
  }

  async viewerLogin(): Promise<string> {
    const answer = await this.request<{ data?: { viewer?: { login?: unknown } }; errors?: unknown }>(
      "POST",
      this.target.graphqlUrl,
      { query: "query { viewer { login } }" },
    );
    const login = answer.json.data?.viewer?.login;
    if (typeof login !== "string" || login === "") {
      throw new Error("GitHub's GraphQL API did not say which account the token belongs to");
    }
    return login;
  }

  /** Reads the list page by page (following `Link: rel="next"` on the same origin only) until `wanted`. */
  async findComment(path: string, wanted: (c: IssueComment) => boolean): Promise<IssueComment | undefined> {
    let url: string | undefined = this.apiUrl + path;
    const origin = new URL(url).origin;
    for (let page = 0; url !== undefined && page < MAX_PAGES; page++) {
      const answer: { json: unknown; link: string | null } = await this.request("GET", url);
      if (!Array.isArray(answer.json))
        throw new Error("GitHub answered the comment list with something else");
      const found = (answer.json as IssueComment[]).find((c) => typeof c?.id === "number" && wanted(c));
      if (found) return found;
      const next = nextLink(answer.link);
      url = next !== undefined && new URL(next).origin === origin ? next : undefined;
    }
    return undefined;
  }

  async send<T>(method: "POST" | "PATCH", path: string, body: unknown): Promise<T> {
    const answer = await this.request<T>(method, this.apiUrl + path, body);
    return answer.json;
  }

  private async request<T>(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ json: T; link: string | null }> {
    const response = await this.fetchImpl(url, {
      method,
      headers: {
        accept: "application/vnd.github+json",
        authorization: `Bearer ${this.target.token}`,
        "content-type": "application/json",
        "user-agent": "posthog-gitops-action",
        "x-github-api-version": "2022-11-28",
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const message = (json as { message?: unknown } | undefined)?.message;
      const path = new URL(url).pathname;
      throw new Error(
        `GitHub answered ${method} ${path} with ${response.status}${typeof message === "string" ? `: ${oneLine(message)}` : ""}${hint(response.status)}`,
      );
    }
    return { json: json as T, link: response.headers.get("link") };
  }
}

function hint(status: number): string {
  return status === 401 || status === 403 || status === 404
    ? " (does the token in github-token have pull-requests: write on this repository?)"
    : "";
}

const oneLine = (text: string) => cut(text.replace(/[\u0000-\u001f\u007f]+/g, " "), 300);

/** The `rel="next"` URL of a Link header. */
export function nextLink(link: string | null): string | undefined {
  for (const part of (link ?? "").split(",")) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match?.[1] && /\brel="?next"?/.test(match[2] ?? "")) return match[1];
  }
  return undefined;
}
