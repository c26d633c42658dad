/**
 * A fake of the few GitHub API endpoints the action's sticky comment uses, on loopback: the GraphQL
 * `viewer { login }` query, and a pull request's issue comments (list with `Link` pagination, create,
 * update). It checks the bearer token, keeps the comments in memory, and records every request
 * (method, path, headers, body) so tests can check what was sent, and that nothing else was.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
  html_url: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FakeGitHub {
  url: string;
  /** Comments per pull request number. */
  comments: Map<number, FakeComment[]>;
  requests: RecordedRequest[];
  /** Adds a comment written by someone (default another user). */
  seed(pull: number, body: string, login?: string): FakeComment;
  /** Answers every request with this status from now on (undefined: normal service). */
  failWith(status: number | undefined): void;
  close(): Promise<void>;
}

export const BOT_LOGIN = "github-actions[bot]";

export async function startFakeGitHub(options: { token: string; pageSize?: number }): Promise<FakeGitHub> {
  const pageSize = options.pageSize ?? 100;
  const comments = new Map<number, FakeComment[]>();
  const requests: RecordedRequest[] = [];
  let nextId = 1000;
  let failure: number | undefined;
  let url = "";

  const add = (pull: number, body: string, login: string): FakeComment => {
    const comment = {
      id: nextId++,
      body,
      user: { login, type: login.endsWith("[bot]") ? "Bot" : "User" },
      html_url: `https://github.com/acme/analytics-config/pull/${pull}#issuecomment-${nextId - 1}`,
    };
    comments.set(pull, [...(comments.get(pull) ?? []), comment]);
    return comment;
  };

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = req.url ?? "/";
    requests.push({ method: req.method ?? "", path, headers: { ...req.headers }, body });
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(value));
    };
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      return send(401, { message: "Bad credentials" });
    }
    if (failure !== undefined) return send(failure, { message: "Resource not accessible by integration" });
    const { pathname, searchParams } = new URL(path, url);
    if (req.method === "POST" && pathname === "/graphql") {
      // GraphQL names a GitHub App's bot without the [bot] suffix that REST shows.
      return send(200, { data: { viewer: { login: BOT_LOGIN.replace("[bot]", "") } } });
    }
    const list = /^\/repos\/acme\/analytics-config\/issues\/(\d+)\/comments$/.exec(pathname);
    if (list?.[1]) {
      const pull = Number(list[1]);
      if (req.method === "GET") {
        const page = Number(searchParams.get("page") ?? "1");
        const all = comments.get(pull) ?? [];
        const slice = all.slice((page - 1) * pageSize, page * pageSize);
        const more = page * pageSize < all.length;
        const next = `${url}${pathname}?per_page=${pageSize}&page=${page + 1}`;
        return send(200, slice, more ? { link: `<${next}>; rel="next"` } : {});
      }
      if (req.method === "POST") {
        return send(201, add(pull, (JSON.parse(body) as { body: string }).body, BOT_LOGIN));
      }
    }
    const one = /^\/repos\/acme\/analytics-config\/issues\/comments\/(\d+)$/.exec(pathname);
    if (one?.[1] && req.method === "PATCH") {
      const comment = [...comments.values()].flat().find((c) => c.id === Number(one[1]));
      if (!comment) return send(404, { message: "Not Found" });
      comment.body = (JSON.parse(body) as { body: string }).body;
      return send(200, comment);
    }
    return send(404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    comments,
    requests,
    seed: (pull, body, login = "mallory") => add(pull, body, login),
    failWith: (status) => {
      failure = status;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}
