/**
 * The personal API key scopes the tool's requests need, as the service names them (service-api.md §8):
 * `{object}:read` to list and retrieve, `{object}:write` to change (which grants read too), `*` for
 * everything. Each kind declares what reading, writing and pulling its objects needs (`KindScopes`, on
 * the kind), the operations commands theirs, and src/commands/scopes.ts composes them per command: the
 * one list README's table (`npm run readme:scopes`) and `posthog-gitops whoami` are made from.
 */

/** A scope as the service names it, e.g. `dashboard:read`. */
export type Scope = `${string}:${"read" | "write"}`;

/** One scope a use needs; `when` says in which case (absent: always), in words a reader follows. */
export interface ScopeNeed {
  readonly scope: Scope;
  readonly when?: string;
}

/** What a kind's objects need. */
export interface KindScopes {
  /** `plan` (and the read of `apply` and `pull --refresh`): reading the live objects the files declare. */
  readonly read: readonly ScopeNeed[];
  /** `apply`, besides `read`: the writes. */
  readonly write: readonly ScopeNeed[];
  /** `pull`: reading every live object to write the files. */
  readonly pull: readonly ScopeNeed[];
}

/** True when a key holding `scopes` may do what `needed` allows (`*`, the scope, or write for read). */
export function grants(scopes: readonly string[], needed: Scope): boolean {
  if (scopes.includes("*") || scopes.includes(needed)) return true;
  const [object, access] = needed.split(":");
  return access === "read" && scopes.includes(`${object}:write`);
}

/**
 * The needs of several uses as one list, each scope once, in first-seen order: one needed always wins
 * over the same one needed in some case; the cases of one scope are joined.
 */
export function mergeNeeds(needs: readonly ScopeNeed[]): ScopeNeed[] {
  const byScope = new Map<Scope, { always: boolean; when: string[] }>();
  for (const need of needs) {
    const entry = byScope.get(need.scope) ?? { always: false, when: [] };
    if (need.when === undefined) entry.always = true;
    else if (!entry.when.includes(need.when)) entry.when.push(need.when);
    byScope.set(need.scope, entry);
  }
  // `x:read` is granted by an `x:write` needed always: it goes without saying.
  const implied = (scope: Scope) => {
    const [object, access] = scope.split(":");
    return access === "read" && byScope.get(`${object}:write` as Scope)?.always === true;
  };
  return [...byScope]
    .filter(([scope]) => !implied(scope))
    .map(([scope, { always, when }]) =>
      always || when.length === 0 ? { scope } : { scope, when: when.join("; or ") },
    );
}

/**
 * What reading the organization's paid features needs (src/read/fetch.ts): only when a plan's changes
 * depend on them; a key refused them gets a note, not an error.
 */
export const FEATURE_SCOPES: readonly ScopeNeed[] = [
  {
    scope: "project:read",
    when: "a plan sets tags or adds collaborators (the paid features; without it: a note)",
  },
  {
    scope: "organization:read",
    when: "a plan sets tags or adds collaborators (the paid features; without it: a note)",
  },
];
