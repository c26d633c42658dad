/**
 * The one lookup behind `email:` and `user_uuid:` collaborators (src/kinds/dashboard/collaborators.ts):
 * the dashboard's own collaborators first, then the organization's members when they were read; what
 * happens when they were refused or never read; the same person named twice.
 */
import { describe, expect, it } from "vitest";
import {
  type DesiredCollaborator,
  resolveCollaborators,
  unresolved,
} from "../../src/kinds/dashboard/collaborators.js";
import { liveCollaborator, source, user } from "../builders.js";

const ANA = "0190f1d2-7b4e-7c3a-9d1f-00000000000a";
const BEN = "0190f1d2-7b4e-7c3a-9d1f-00000000000b";
const byEmail = (email: string, line = 1): DesiredCollaborator => ({
  email,
  level: 37,
  source: source(line),
});
const byUuid = (user_uuid: string, line = 1): DesiredCollaborator => ({
  user_uuid,
  level: 37,
  source: source(line),
});
const members = { members: [{ id: "m1", user: user(ANA, { email: "Ana@Acme.com" }) }] };
const OWNER = 'dashboard "Team"';

describe("resolveCollaborators", () => {
  it("finds people on the dashboard without the members list, by UUID or email in any case", () => {
    const on = [liveCollaborator(1, BEN)];
    const ben = on[0]!.user.email;
    expect(unresolved([byUuid(BEN), byEmail(ben.toUpperCase())], on)).toEqual([]);
    expect(unresolved([byEmail("ana@acme.com")], on)).toHaveLength(1);
    const result = resolveCollaborators(OWNER, [byEmail(ben.toUpperCase())], on, undefined);
    expect(result).toEqual({ collaborators: [{ user_uuid: BEN, level: 37 }], errors: [] });
  });

  it("resolves against the members read, and refuses anyone else at their source", () => {
    const result = resolveCollaborators(OWNER, [byEmail("ANA@acme.com", 3), byUuid(BEN, 4)], [], members);
    expect(result.collaborators).toEqual([{ user_uuid: ANA, level: 37 }]);
    expect(result.errors).toEqual([
      {
        message: `collaborator ${BEN} of ${OWNER} is not a member of the organization (no active member has this UUID): the service would refuse to add them; \`posthog-gitops members\` lists who can be named`,
        source: source(4),
      },
    ]);
    expect(result.unchecked).toBeUndefined();
  });

  it("the same person by email and by UUID is one error, at the second", () => {
    const result = resolveCollaborators(OWNER, [byEmail("ana@acme.com", 2), byUuid(ANA, 5)], [], members);
    expect(result.collaborators).toEqual([{ user_uuid: ANA, level: 37 }]);
    expect(result.errors.map((e) => [e.message, e.source?.line])).toEqual([
      [`collaborator ${ANA} of ${OWNER} is ana@acme.com, listed already at posthog/project.yaml:2:5`, 5],
    ]);
  });

  it("a refused list: UUIDs pass unchecked (said once by the caller), emails cannot be resolved", () => {
    const refused = { refused: "the API key lacks the scope 'organization_member:read'" };
    const result = resolveCollaborators(OWNER, [byUuid(BEN), byEmail("ana@acme.com", 7)], [], refused);
    expect(result.collaborators).toEqual([{ user_uuid: BEN, level: 37 }]);
    expect(result.unchecked).toBe(refused.refused);
    expect(result.errors).toEqual([
      {
        message: `collaborator ana@acme.com of ${OWNER} cannot be resolved to a user: ${refused.refused}; name them with user_uuid: instead`,
        source: source(7),
      },
    ]);
  });

  it("members never read (a planner fed live state without them): UUIDs pass, emails are errors", () => {
    const result = resolveCollaborators(OWNER, [byUuid(BEN), byEmail("ana@acme.com")], [], undefined);
    expect(result.collaborators).toEqual([{ user_uuid: BEN, level: 37 }]);
    expect(result.unchecked).toBeUndefined();
    expect(result.errors[0]?.message).toContain(
      "cannot be resolved to a user: the organization's members were not read",
    );
  });
});
