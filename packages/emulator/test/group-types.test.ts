/**
 * Group types (service-api.md §14.2): `GET /api/projects/{id}/groups_types/` answers the project's
 * group types as a plain list ordered by index, with scope `group:read`; each project numbers its own,
 * so the seed gives them per project, and a project without any answers an empty list.
 */
import { describe, expect, it } from "vitest";
import { useEmulator } from "./support/harness.js";

const h = useEmulator();

describe("the group types endpoint", () => {
  it("lists each project's own group types by index, as a plain list", async () => {
    await h.reseed((state) => {
      const staging = state.projects.find((p) => p.id === 12346);
      if (staging === undefined) throw new Error("no staging project");
      staging.group_types = [
        { group_type: "workspace", group_type_index: 1, created_at: "2025-02-01T00:00:00.000Z" },
        {
          group_type: "company",
          group_type_index: 0,
          name_plural: "firms",
          created_at: "2025-02-01T00:00:00.000Z",
        },
      ];
    });
    const staging = await h.api("GET", "/api/projects/12346/groups_types/");
    expect(staging.status).toBe(200);
    expect(staging.body).toEqual([
      {
        group_type: "company",
        group_type_index: 0,
        name_singular: null,
        name_plural: "firms",
        detail_dashboard: null,
        default_columns: null,
        created_at: "2025-02-01T00:00:00.000Z",
      },
      {
        group_type: "workspace",
        group_type_index: 1,
        name_singular: null,
        name_plural: null,
        detail_dashboard: null,
        default_columns: null,
        created_at: "2025-02-01T00:00:00.000Z",
      },
    ]);
    const production = await h.api("GET", "/api/projects/12345/groups_types/");
    expect(production.body.map((t: { group_type: string }) => t.group_type)).toEqual([
      "company",
      "workspace",
    ]);
    expect(
      (await h.api("GET", "/api/projects/22222/groups_types/", undefined, { key: "phx_emulator_globex" }))
        .body,
    ).toEqual([]);
  });

  it("asks for group:read, and refuses a seed index outside 0 to 5", async () => {
    await h.reseed((state) => {
      state.api_keys.push({ key: "phx_no_groups_key_0000000", user: 1, scopes: ["project:read"] });
    });
    const refused = await h.api("GET", "/api/projects/12345/groups_types/", undefined, {
      key: "phx_no_groups_key_0000000",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("API key missing required scope 'group:read'");
    const bad = await h.control("POST", "seed", {
      base: "default",
      projects: [{ id: 1, organization: "o", group_types: [{ group_type: "x", group_type_index: 6 }] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("group_type_index is 0 to 5");
  });
});
