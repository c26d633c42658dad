/**
 * The scopes each command needs, composed from what the kinds and the operations declare
 * (src/scopes.ts): the one list README's table is written from (`npm run readme:scopes`,
 * scripts/write-readme-scopes.ts; test/cli/scopes.e2e.test.ts fails when they differ) and `whoami` checks
 * a key against.
 */
import { OPERATION_SCOPES } from "../kinds/batch-export/operations/index.js";
import type { Kind } from "../kinds/index.js";
import { MEMBERS_SCOPE } from "../read/people.js";
import { mergeNeeds, type ScopeNeed } from "../scopes.js";

export interface CommandScopes {
  /** The commands it covers, as README names them. */
  readonly commands: readonly string[];
  /** True when what it needs depends on the kinds the files declare. */
  readonly byKind: boolean;
  /** What it needs, for the kinds the files declare. */
  needs(kinds: readonly Kind[]): ScopeNeed[];
  /** For a command whose needs depend on the kinds but have no column of README's kinds table: its cell. */
  readonly summary?: string;
}

/**
 * What SPEC §9's warnings read in each environment, when a shared declaration needs it: without the
 * scope that check is skipped, with a note (`promote`; `plan` of several environments reads the
 * group types).
 */
export const PREFLIGHT_SCOPES: readonly ScopeNeed[] = [
  { scope: "group:read", when: "a shared declaration aggregates by a group type index" },
  { scope: "integration:read", when: "a shared declaration names an integration" },
  { scope: MEMBERS_SCOPE, when: "a shared declaration names a member" },
];

const read = (kinds: readonly Kind[]) => mergeNeeds(kinds.flatMap((k) => k.scopes.read));
const write = (kinds: readonly Kind[]) =>
  mergeNeeds([...kinds.flatMap((k) => k.scopes.read), ...kinds.flatMap((k) => k.scopes.write)]);
const pull = (kinds: readonly Kind[]) => mergeNeeds(kinds.flatMap((k) => k.scopes.pull));
const fixed = (needs: readonly ScopeNeed[]) => () => [...needs];
const code = (text: string) => `\`${text}\``;

export const COMMAND_SCOPES: readonly CommandScopes[] = [
  { commands: ["validate"], byKind: false, needs: fixed([]) },
  { commands: ["plan", "pull --refresh"], byKind: true, needs: read },
  { commands: ["apply"], byKind: true, needs: write },
  { commands: ["pull"], byKind: true, needs: pull },
  {
    commands: ["promote"],
    byKind: true,
    needs: (kinds) => mergeNeeds([...read(kinds), ...pull(kinds), ...PREFLIGHT_SCOPES]),
    summary: `what \`plan\` and \`pull\` need for the kinds the files declare, in both environments; ${PREFLIGHT_SCOPES.map((n) => `${code(n.scope)} when ${n.when}`).join("; ")} (without it that warning is not checked; \`plan\` of several environments reads the group types too)`,
  },
  { commands: ["status"], byKind: false, needs: fixed(OPERATION_SCOPES.status) },
  {
    commands: ["runs", "logs"],
    byKind: false,
    needs: fixed(mergeNeeds([...OPERATION_SCOPES.runs, ...OPERATION_SCOPES.logs])),
  },
  {
    commands: ["retry", "backfill"],
    byKind: false,
    needs: fixed(mergeNeeds([...OPERATION_SCOPES.retry, ...OPERATION_SCOPES.backfill])),
  },
  { commands: ["events"], byKind: false, needs: fixed([{ scope: "query:read" }]) },
  {
    commands: ["members"],
    byKind: false,
    needs: fixed([{ scope: "project:read" }, { scope: MEMBERS_SCOPE }]),
  },
  { commands: ["whoami"], byKind: false, needs: fixed([]) },
];

/** One cell: the scopes needed always, then each other one with its case. */
function cell(needs: readonly ScopeNeed[]): string {
  if (needs.length === 0) return "nothing";
  return needs
    .map((n) => (n.when === undefined ? code(n.scope) : `${code(n.scope)} when ${n.when}`))
    .join("; ");
}

/** README's block: per kind what `plan`, `apply` and `pull` need, then the other commands. */
export function scopesMarkdown(kinds: readonly Kind[]): string {
  const rows = [
    "| kind | `plan`, `pull --refresh` | `apply` (besides what `plan` needs) | `pull` |",
    "| :-- | :-- | :-- | :-- |",
    ...kinds.map((k) => {
      const reads = mergeNeeds(k.scopes.read);
      const writes = mergeNeeds(k.scopes.write);
      return `| ${k.words.many} | ${cell(reads)} | ${cell(writes)} | ${cell(mergeNeeds(k.scopes.pull))} |`;
    }),
    "",
    "| command | needs |",
    "| :-- | :-- |",
    ...COMMAND_SCOPES.filter((c) => !c.byKind || c.summary !== undefined).map(
      (c) =>
        `| ${c.commands.map(code).join(", ")} | ${c.summary ?? (c.commands.includes("whoami") ? "nothing: any personal API key" : c.commands.includes("validate") ? "nothing: no key (offline)" : cell(c.needs([])))} |`,
    ),
  ];
  return `${rows.join("\n")}\n`;
}
