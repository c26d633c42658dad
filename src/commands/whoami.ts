/**
 * `posthog-gitops whoami [PATH...]`: which scopes and projects the API key holds, read from the service
 * (`GET /api/personal_api_keys/@current/`, which any personal API key may ask with no scope), and per
 * command what it lacks for the kinds the files declare (the files given, else `posthog/` when it
 * exists, else every kind): scopes needed always, then those needed only in some case, with the case.
 * A key limited to projects is also checked against the files' projects, and cannot use the
 * organization's endpoints (members, paid features) whatever its scopes. Table or JSON on stdout; exit
 * 0 whatever it lacks (the lines say what to add).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Io } from "../io.js";
import { KINDS, type Kind } from "../kinds/index.js";
import { painter, renderTable } from "../render/table.js";
import { colorEnabled } from "../render/text.js";
import { grants, type Scope, type ScopeNeed } from "../scopes.js";
import { flat } from "../text.js";
import { loadFiles } from "./config.js";
import { type ConnectionFlags, withService } from "./connect.js";
import { parseFormat } from "./options.js";
import { projectChoice } from "./project.js";
import { COMMAND_SCOPES } from "./scopes.js";

export interface WhoamiOptions extends ConnectionFlags {
  args?: string[];
  format?: string;
}

/** The organization's endpoints, which a key limited to projects may not use (service-api.md §8). */
const ORGANIZATION_SCOPES = new Set<string>(["organization:read", "organization_member:read"]);

export interface CommandCheck {
  commands: string[];
  /** Needed always, and not granted. */
  missing: Scope[];
  /** Needed in some case, and not granted (or unusable by a key limited to projects). */
  missing_when: { scope: Scope; when: string }[];
}

export async function run(options: WhoamiOptions, io: Io): Promise<number> {
  const format = parseFormat(options.format, ["text", "json"] as const, "text");
  const paths = options.args ?? [];
  const readFiles = paths.length > 0 || existsSync(resolve(io.cwd, "posthog"));
  const loaded = readFiles
    ? await loadFiles(paths.length > 0 ? paths : ["posthog"], options, io, "validate")
    : undefined;
  const declared = new Set(loaded?.projects.flatMap((p) => p.manages) ?? []);
  const kinds: readonly Kind[] = loaded ? KINDS.filter((k) => declared.has(k.name)) : KINDS;
  const fromFiles = loaded?.projects.flatMap((p) => (p.project === undefined ? [] : [p.project])) ?? [];
  const chosen = projectChoice(options, io).project;
  const projects = [...new Set(loaded ? fromFiles : chosen !== undefined ? [chosen] : [])].sort(
    (a, b) => a - b,
  );

  return withService(options, io, async (ctx) => {
    const key = await ctx.client.keys.current();
    const scopes = key.scopes;
    const limitedTo = key.scoped_teams ?? [];
    const limited = limitedTo.length > 0;
    const usable = (scope: Scope) => grants(scopes, scope) && !(limited && ORGANIZATION_SCOPES.has(scope));
    const checks: CommandCheck[] = COMMAND_SCOPES.map((c) => {
      const needs: ScopeNeed[] = c.needs(kinds);
      return {
        commands: [...c.commands],
        missing: needs.filter((n) => n.when === undefined && !usable(n.scope)).map((n) => n.scope),
        missing_when: needs
          .filter((n) => n.when !== undefined && !usable(n.scope))
          .map((n) => ({ scope: n.scope, when: n.when as string })),
      };
    });
    const unreachable = limited ? projects.filter((p) => !limitedTo.includes(p)) : [];
    if (format === "json") {
      const doc = {
        format_version: "1",
        key: {
          label: key.label ?? null,
          mask: key.mask_value ?? null,
          scopes,
          projects: limitedTo,
        },
        kinds: kinds.map((k) => k.key),
        projects: { files: projects, unreachable },
        commands: checks,
      };
      ctx.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
      return 0;
    }
    const paint = painter(colorEnabled(io.env, io.stdout.isTTY === true));
    const label = key.label ? ` "${flat(key.label)}"` : "";
    const lines = [
      `Key ${flat(key.mask_value ?? "(masked)")}${label}: scopes ${scopes.length > 0 ? scopes.join(", ") : "none"}`,
      limited
        ? `Projects: only ${limitedTo.join(", ")} (a key limited to projects may not use the organization's endpoints)`
        : "Projects: every project its user may reach",
      loaded
        ? `Kinds your files declare: ${kinds.length > 0 ? kinds.map((k) => k.words.many).join(", ") : "none"}`
        : "No files (posthog/ not found): every kind",
      ...(unreachable.length > 0
        ? [`Your files name project ${unreachable.join(", ")}, which this key cannot reach`]
        : []),
      "",
    ];
    const rows = checks.map((c) => [c.commands.join(", "), verdict(c)]);
    ctx.io.stdout.write(`${lines.join("\n")}\n${renderTable(["COMMAND", "SCOPES"], rows, paint)}`);
    return 0;
  });
}

/** One cell: ok, or the scopes it lacks (always), then those it lacks in some case, with the case. */
export function verdict(check: CommandCheck): string {
  const cases = check.missing_when.map((m) => `${m.scope} when ${m.when}`);
  const head = check.missing.length > 0 ? `missing ${check.missing.join(", ")}` : "ok";
  return cases.length > 0 ? `${head}; needs ${cases.join("; ")}` : head;
}
