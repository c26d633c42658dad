/**
 * `posthog-gitops members`: who a dashboard's `collaborators:` may name, the active members of the
 * project's organization (email, name, UUID), sorted by email. The same list, read the same way, that
 * `plan` resolves collaborators against (src/read/people.ts). Table or JSON
 * (schemas/members.schema.json) on stdout. A key that may not read the list (a project-scoped key, a
 * missing `organization_member:read`) gets one line saying which.
 */
import { UserError } from "../errors.js";
import type { Io } from "../io.js";
import { compareText } from "../plan/values.js";
import { isRefusal, MEMBERS_SCOPE, organizationRefusal } from "../read/people.js";
import { painter, renderTable } from "../render/table.js";
import { colorEnabled } from "../render/text.js";
import { escapeNonAscii } from "../text.js";
import { configuredProject } from "./config.js";
import { type ConnectionFlags, withService } from "./connect.js";
import { parseFormat } from "./options.js";

export interface MembersOptions extends ConnectionFlags {
  format?: string;
  config?: string;
}

export interface MemberRow {
  email: string;
  name: string;
  uuid: string;
}

export async function run(options: MembersOptions, io: Io): Promise<number> {
  const format = parseFormat(options.format, ["text", "json"] as const, "text");
  const project = await configuredProject(options.config, options, io);
  return withService(options, io, async (ctx) => {
    const { organization } = await ctx.client.organizations.getProject(project);
    let members: Awaited<ReturnType<typeof ctx.client.organizations.members>>;
    try {
      members = await ctx.client.organizations.members(String(organization));
    } catch (error) {
      if (!isRefusal(error)) throw error;
      const why = organizationRefusal(error, "the organization's members list", MEMBERS_SCOPE);
      throw new UserError(`cannot list the members of project ${project}'s organization: ${why}`);
    }
    const rows: MemberRow[] = members
      .map((m) => ({
        email: m.user.email ?? "",
        name: `${m.user.first_name ?? ""} ${m.user.last_name ?? ""}`.trim(),
        uuid: m.user.uuid,
      }))
      .sort((a, b) => compareText(a.email, b.email) || compareText(a.uuid, b.uuid));
    if (format === "json") {
      const doc = { format_version: "1", project, organization: String(organization), members: rows };
      ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      const paint = painter(colorEnabled(io.env, io.stdout.isTTY === true));
      ctx.io.stdout.write(
        renderTable(
          ["EMAIL", "NAME", "UUID"],
          // An email is an identifier: anything outside ASCII shows as `\uXXXX` (JSON keeps it as is).
          rows.map((r) => [escapeNonAscii(r.email), r.name, escapeNonAscii(r.uuid)]),
          paint,
        ),
      );
    }
    return 0;
  });
}
