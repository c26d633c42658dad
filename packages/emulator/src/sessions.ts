/**
 * Browser sessions: `POST /_emulator/sessions` `{"user": id}` signs a user in as the service's login
 * would (Django's `force_login` in PostHog's tests) and answers the two cookies a browser then sends,
 * `{"sessionid", "csrftoken"}` (201). Requests with `Cookie: sessionid=...` act as that user (auth.ts):
 * no scopes and no throttling apply to them, and their unsafe methods need the `X-CSRFToken` header to
 * repeat the `csrftoken` cookie. The service's login flow (passwords, two-factor) is not modelled.
 */
import { randomBytes } from "node:crypto";
import type { Store } from "./store.js";

export function openSession(
  store: Store,
  body: unknown,
  now: Date,
): { sessionid: string; csrftoken: string } {
  const id = typeof body === "object" && body !== null ? (body as Record<string, unknown>).user : undefined;
  const user = Number.isInteger(id) ? store.user(id as number) : undefined;
  if (!user) throw new Error('sessions: "user" must be the id of a user of the state');
  if (!user.is_active) throw new Error(`sessions: user ${user.id} is not active`);
  const session = {
    id: randomBytes(24).toString("hex"),
    user: user.id,
    csrf_token: randomBytes(24).toString("hex"),
    created_at: now.toISOString(),
  };
  store.data.sessions.push(session);
  store.touch();
  return { sessionid: session.id, csrftoken: session.csrf_token };
}
