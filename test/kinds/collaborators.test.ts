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

describe("people matched exactly", () => {
  const KATE = "0190f1d2-7b4e-7c3a-9d1f-00000000000c";
  const MALLORY = "0190f1d2-7b4e-7c3a-9d1f-00000000000d";

  it("folds ASCII letters only: a Kelvin sign (U+212A) is not a K", () => {
    const list = { members: [{ id: "m1", user: user(MALLORY, { email: "\u212Aate@example.com" }) }] };
    const result = resolveCollaborators(OWNER, [byEmail("kate@example.com", 3)], [], list);
    expect(result.collaborators).toEqual([]);
    expect(result.errors[0]?.message).toContain("is not a member of the organization");
    // Named exactly as the service holds it, the same person resolves.
    const exact = resolveCollaborators(OWNER, [byEmail("\u212AATE@EXAMPLE.COM", 3)], [], list);
    expect(exact.collaborators).toEqual([{ user_uuid: MALLORY, level: 37 }]);
    // On the dashboard already, the look-alike does not stand in for the declared person either.
    const on = [{ ...liveCollaborator(1, MALLORY), user: user(MALLORY, { email: "\u212Aate@example.com" }) }];
    expect(unresolved([byEmail("kate@example.com")], on)).toHaveLength(1);
  });

  it("several members for one email, or one UUID, is an error naming them, escaped", () => {
    const list = {
      members: [
        { id: "m1", user: user(KATE, { email: "kate@example.com" }) },
        { id: "m2", user: user(MALLORY, { email: "Kate@Example.com" }) },
      ],
    };
    const byMail = resolveCollaborators(OWNER, [byEmail("KATE@example.com", 4)], [], list);
    expect(byMail.collaborators).toEqual([]);
    expect(byMail.errors).toEqual([
      {
        message: `collaborator KATE@example.com of ${OWNER} matches 2 members (kate@example.com ${KATE}, Kate@Example.com ${MALLORY}): name the right one with user_uuid:`,
        source: source(4),
      },
    ]);
    const twice = {
      members: [
        { id: "m1", user: user(KATE, { email: "kate@example.com" }) },
        { id: "m2", user: user(KATE, { email: "k\u0430te@example.com" }) },
      ],
    };
    const byId = resolveCollaborators(OWNER, [byUuid(KATE, 5)], [], twice);
    expect(byId.collaborators).toEqual([]);
    expect(byId.errors[0]?.message).toBe(
      `collaborator ${KATE} of ${OWNER} matches 2 members (kate@example.com ${KATE}, k\\u0430te@example.com ${KATE}): name the right one with user_uuid:`,
    );
  });

  it("the same user on the dashboard and in the members list is one match", () => {
    const on = [{ ...liveCollaborator(1, KATE), user: user(KATE, { email: "kate@example.com" }) }];
    const list = { members: [{ id: "m1", user: user(KATE, { email: "kate@example.com" }) }] };
    const result = resolveCollaborators(OWNER, [byEmail("kate@example.com")], on, list);
    expect(result).toEqual({ collaborators: [{ user_uuid: KATE, level: 37 }], errors: [] });
  });
});
