/** People for a plan: from the live state first, the members list only for the rest, never fatal. */
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds/index.js";
import type { LiveProject } from "../../src/plan/types.js";
import { MemberDirectory, withPeople } from "../../src/read/people.js";
import { ServiceError } from "../../src/service/errors.js";
import { StoppedError } from "../../src/service/stop.js";
import { act, buildPlan, dashboard } from "../render/fixtures.js";

const A = "0190f3a2-7c1d-7000-8000-00000000000a";
const B = "0190f3a2-7c1d-7000-8000-00000000000b";

const live: LiveProject[] = [
  {
    project: 1,
    kinds: {
      dashboard: {
        objects: [
          {
            id: 1,
            name: "D",
            created_by: {
              uuid: A.toUpperCase(),
              first_name: "Ana",
              last_name: "Lima",
              email: "ana@acme.com",
            },
          },
        ],
      } as never,
    },
  },
];

const plan = () =>
  buildPlan([
    act("add_collaborator", dashboard("D", { project: 1 }), { after: { user_uuid: A, level: 37 } }),
    act("add_collaborator", dashboard("D", { project: 1 }), { after: { user_uuid: B, level: 37 } }),
  ]);

describe("withPeople", () => {
  it("asks the members list only for users the live state does not name", async () => {
    const asked: number[] = [];
    const directory = {
      membersOf: async (project: number) => {
        asked.push(project);
        return [{ id: "m", user: { uuid: B, first_name: "", email: "ben@acme.com" } }];
      },
    };
    const out = await withPeople(plan(), live, directory, KINDS);
    expect(out.people).toEqual({
      [A]: { name: "Ana Lima", email: "ana@acme.com" },
      [B]: { email: "ben@acme.com" },
    });
    expect(asked).toEqual([1]);
  });

  it("leaves a plan without collaborators as it is, and asks nothing", async () => {
    const empty = buildPlan([act("update", dashboard("D"))]);
    const out = await withPeople(empty, live, { membersOf: async () => expect.fail("asked") }, KINDS);
    expect(out).toBe(empty);
  });

  it("one members list per organization; a refusal leaves users unknown; a stop goes on", async () => {
    let gets = 0;
    const client = {
      organizations: {
        getProject: async () => ({ organization: "org-1" }),
        members: async () => {
          gets += 1;
          throw new ServiceError({ method: "GET", path: "/members/", status: 403 } as never);
        },
      },
    };
    const directory = new MemberDirectory(client as never);
    expect(await directory.membersOf(1)).toEqual([]);
    expect(await directory.membersOf(2)).toEqual([]);
    expect(gets).toBe(1);
    const stopping = new MemberDirectory({
      organizations: {
        getProject: async () => {
          throw new StoppedError("GET", "/api/projects/1/");
        },
      },
    } as never);
    await expect(stopping.membersOf(1)).rejects.toBeInstanceOf(StoppedError);
  });
});
