/**
 * `GET /api/organizations/{id}/members/`: the organization's members (active users), limit/offset
 * pages, scope `organization_member:read`. What a plan reads, once per organization, to name
 * collaborators it found nowhere else.
 */
import { createHash } from "node:crypto";
import { offsetPage } from "../pagination.js";
import type { Ctx, Router } from "../router.js";
import type { UserRecord } from "../types.js";
import { userBasic } from "./dashboard-access.js";

const LEVEL = { member: 1, admin: 8, owner: 15 } as const;

/** A stable membership id per (organization, user), shaped like the service's UUIDs. */
function membershipId(org: string, user: UserRecord): string {
  const hex = createHash("sha256").update(`${org}/${user.uuid}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function members(ctx: Ctx) {
  const org = ctx.org.id;
  const items = ctx.store.data.users
    .filter((u) => u.is_active && ctx.store.isMember(u, org))
    .sort((a, b) => a.id - b.id);
  return {
    status: 200,
    body: offsetPage(ctx, items, (user) => {
      const membership = user.organizations.find((m) => m.id === org);
      return {
        id: membershipId(org, user),
        user: userBasic(user),
        level: LEVEL[membership?.level ?? "member"],
        joined_at: "2024-01-01T00:00:00Z",
        updated_at: "2024-01-01T00:00:00Z",
        is_2fa_enabled: false,
        has_social_auth: false,
        last_login: null,
      };
    }),
  };
}

export function registerMembers(router: Router): void {
  router.add({
    method: "GET",
    pattern: "/api/organizations/:org/members",
    scope: "organization_member:read",
    handler: members,
  });
}
