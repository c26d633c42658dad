/**
 * The plan is a value: built once by the pure planner (`buildPlan`), then rendered (text, markdown, json)
 * and executed (`applyPlan`), or saved with `plan --out` and applied later. The JSON output format
 * (`schemas/plan.schema.json`) is this type serialised; renderers read only this type.
 *
 * A plan never holds a secret value: secret fields appear as `SecretRef`s and are resolved from the
 * environment only when a request body is built during apply.
 */
import type { SourceRef } from "../config/types.js";

/**
 * "2": an action's `before` / `after` name only the fields that change (an update has the same keys on
 * both sides), and what apply needs besides them is plan data of its own: `requires`, `required_by`,
 * `preconditions` and `sends` (STYLE practice 15).
 */
export const PLAN_FORMAT_VERSION = "2";

/** A kind's stable name (`dashboard`, `batch_export`, …): the registry in src/kinds says which exist. */
export type ResourceKind = string;

/**
 * A stable action name, used in every output format (SPEC §3): `create`, `update`, `soft_delete`,
 * `restore`, `delete`, and each kind's own (`pause`, `add_collaborator`, …). Kinds declare their verbs
 * (src/kinds); the plan schema lists the names of the kinds a plan is made with.
 */
export type ActionKind = string;

/** A secret in a plan: where its value comes from, never the value. Renders as `(secret from $NAME)`. */
export interface SecretRef {
  $secret: string;
  /** Environment variables it is interpolated from. */
  variables: string[];
}

/** Which object an action is about. */
export interface ObjectRef {
  kind: ResourceKind;
  project: number;
  /** The declared name (or, for a pruned object, the live name). */
  name: string;
  /** The live id when the object exists (number for dashboards, UUID for batch exports). */
  id?: number | string;
  /** Where the object is declared; absent for a pruned object no file declares. */
  source?: SourceRef;
}

/** One field that differs. `before` is the live value, `after` the desired one. */
export interface FieldChange {
  /** Dotted path, e.g. `description`, `tags`, `destination.config.bucket_name`. */
  path: string;
  /** Absent when the field is new (unset live) or write-only. */
  before?: unknown;
  /** Absent when the field is removed. A secret is a `SecretRef`. */
  after?: unknown;
  /** Unified diff, for long text (descriptions, HogQL). */
  diff?: string;
  /** True for write-only fields (secrets): never compared, sent on create / rotation / destination change. */
  secret?: boolean;
  /**
   * What the change does, in words a reviewer reads at a glance ("group 2: rollout 20% → 60%",
   * "turns the flag off for everyone"); human outputs show these instead of `before → after`.
   */
  says?: string[];
}

/**
 * Another object an action names (SPEC §3 "Apply order"): by kind and name, with its live id when the
 * plan knows it. No `id`: the object is created in this apply, and apply hands its new id on.
 */
export interface ObjectLink {
  kind: ResourceKind;
  name: string;
  id?: number | string;
}

/**
 * One step. `before` / `after` are what the reviewer reads: the fields the action changes, nothing else.
 * Which side is absent for which action (each verb declares its `sides`; a kind's own verbs say what
 * theirs hold in their doc comments, src/kinds/<kind>/verbs.ts):
 * - create: `before` absent, `after` is the full body to send (names where the body refers to other
 *   objects: `requires` holds their ids).
 * - update: both present with the same keys, holding only the changed fields (live values before,
 *   declared ones after); `changes` lists them.
 * - restore: `before` = { deleted: true }, `after` = { deleted: false }.
 * - soft_delete / delete: `before` is the live object summary, `after` absent.
 * What apply needs besides them lives beside them (Terraform keeps `Private` apart from `Before` /
 * `After`): `requires`, `required_by`, `preconditions`, `sends`.
 */
export interface Action {
  action: ActionKind;
  object: ObjectRef;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  changes: FieldChange[];
  /**
   * The objects this action refers to, which must be live first: apply runs their work (create,
   * restore, update) before it, skips it when that work failed, and hands it their ids (a link without
   * an id is created in this apply: "(created in this apply)").
   */
  requires?: ObjectLink[];
  /**
   * The objects that refer to this one and are changed, turned off or deleted before this action
   * takes it down (a flag's dependents before it is disabled, archived or deleted).
   */
  required_by?: ObjectLink[];
  /**
   * What must still hold when apply runs, as the plan read it: checked by the service or by apply (a
   * flag's `version` and the stored values its version check compares; how apply finds a tile).
   */
  preconditions?: Record<string, unknown>;
  /**
   * What the request sends besides the changed fields: write-only values (secrets, sent again under
   * --rotate-secrets or with a changing destination) and the companions the service needs with them
   * (a destination's type and integration, a schedule's interval).
   */
  sends?: Record<string, unknown>;
  destructive: boolean;
  /** Things a reviewer should know about this action (e.g. the paused gap an unpause leaves unexported). */
  warnings: string[];
  /**
   * Why this action is refused without --force (also under --auto-approve): e.g. it turns off, deletes,
   * archives or re-keys a feature flag evaluated in the last 30 days. Such actions are destructive.
   */
  guard?: string;
  /**
   * Only in a plan made with `--base REF`, and only on actions whose object's declaration is the same at
   * REF and in the working tree (or, for an object no file declares, absent from both): the live service
   * changed, not the files. Always `true` when present.
   */
  drift?: true;
  /**
   * When the service says when (and by whom) the live object was last modified: on the actions of every
   * live object a plan made by the CLI changes (dashboards' answers carry none). `by` is a user UUID,
   * named in `Plan.people`.
   */
  modified?: { at?: string; by?: string };
  /**
   * Only in an environment's plan (SPEC §9): the values of the declaration that the environment's
   * overlay or variables gave, by dotted path (`pinned`, `filters.groups.0.rollout_percentage`), each
   * with where it was written. Outputs cite them beside the changes under those paths.
   */
  origins?: Record<string, ValueOrigin[]>;
}

/** Where an environment's value came from (SPEC §9). */
export interface ValueOrigin {
  file: string;
  line: number;
  column: number;
  /**
   * `overlay`: an overlay set it (or added that entry); `replaced`: an overlay's list replaced the
   * shared one whole; `variable`: the environment's variable `name`; `secret`: the secret `name` is
   * read from the variable its entry maps it to.
   */
  how: "overlay" | "replaced" | "variable" | "secret";
  name?: string;
}

/** A user the plan names (by UUID), as the service described them. Either field may be missing. */
export interface Person {
  /** First and last name. */
  name?: string;
  email?: string;
}

/** A plan-wide observation that is not an action (e.g. tags the service ignores). */
export interface PlanNote {
  severity: "warning" | "note";
  message: string;
  object?: ObjectRef;
}

export interface PlanSummary {
  /** Count per action kind present in the plan. */
  counts: Partial<Record<ActionKind, number>>;
  total: number;
  destructive: boolean;
}

export interface Plan {
  format_version: typeof PLAN_FORMAT_VERSION;
  /** When the live state was read (ISO-8601). */
  created_at: string;
  projects: number[];
  /** Sorted once by `sortActions`: every output and fingerprint sees this order. */
  actions: Action[];
  notes: PlanNote[];
  /**
   * Fingerprint of each touched object's live state, keyed by `objectKey(ref)`; `apply --plan` refuses
   * when one no longer matches. An object absent live (create) is fingerprinted as absent.
   */
  fingerprints: Record<string, string>;
  summary: PlanSummary;
  /**
   * Set when `--target` narrowed the plan: the targets as given. The plan is partial (other objects may
   * have changes it does not show).
   */
  targets?: string[];
  /**
   * Set when the plan was asked for with `--undeclared`: the live objects of the kinds the files list
   * that no file declares (and no `ignore:` glob names), which `--prune` would delete; read-only.
   */
  undeclared?: ObjectRef[];
  /** Set when the plan was made with `--base REF`: the revision declarations were compared with. */
  base?: string;
  /**
   * Set when the plan was asked for with `--changed-only`: whether only the change from `base` was
   * read and planned (drift on the other declarations was not checked), or everything, and why.
   */
  scope?: PlanScope;
  /**
   * The users the plan names (collaborators, `modified.by`) by UUID, from what the service already said
   * (collaborator lists, dashboards' creators, the organization's members). A UUID absent here is unknown.
   */
  people?: Record<string, Person>;
}

/** What a `--changed-only` plan read (SPEC §3 "Change-scoped plans"). */
export interface PlanScope {
  /**
   * `changes`: only the declarations the change from `base` adds, modifies or tombstones were read and
   * planned, and drift on the others was not checked; `full`: every declaration was, for `reason`.
   */
  read: "changes" | "full";
  /** The revision the change is measured from, as given. */
  base: string;
  /** Declarations in the files. */
  declarations: number;
  /** Declarations read and planned (all of them when `read` is `full`). */
  planned: number;
  /** Why the whole project was read (`full` only). */
  reason?: string;
  /**
   * Declarations the change removed (`changes` only). Nothing prunes them: each stays live as it is,
   * unmanaged; `live` is its live object's id when there is one.
   */
  removed?: Array<{ kind: ResourceKind; project: number; name: string; live?: number | string }>;
}

/** The key of an object in fingerprints and in sorting: `project/kind/name`. */
export function objectKey(ref: Pick<ObjectRef, "project" | "kind" | "name">): string {
  return `${ref.project}/${ref.kind}/${ref.name}`;
}

/**
 * Each action's key in `fingerprints`: its `objectKey`, and `objectKey#id` where several touched objects
 * of a kind share a name (pinned objects may: SPEC §2), so each of them is fingerprinted and checked.
 */
export function fingerprintKeys(actions: readonly Action[]): string[] {
  const ids = new Map<string, Set<string>>();
  for (const action of actions) {
    const key = objectKey(action.object);
    const seen = ids.get(key) ?? new Set<string>();
    seen.add(String(action.object.id ?? ""));
    ids.set(key, seen);
  }
  return actions.map((action) => {
    const key = objectKey(action.object);
    return (ids.get(key)?.size ?? 0) > 1 ? `${key}#${action.object.id ?? ""}` : key;
  });
}

/** What every live object has, whatever its kind. */
export interface LiveObject {
  id: number | string;
  name: string | null;
}

/**
 * The live state of one kind in one project: every live, non-deleted object from the kind's list, plus
 * whatever details the kind read for some of them (a dashboard's collaborators and sharing). Each kind
 * extends this with its own shape; the generic planner only reads `objects`.
 */
export interface LiveKind {
  objects: LiveObject[];
  /**
   * Set by a change-scoped read (`plan --changed-only`), which reads only some objects: `objects` is not
   * the whole list, and `total` is the list's count when the read learnt it.
   */
  scoped?: { total?: number };
  /**
   * Objects read only so that references can name them, never matched, planned or pruned (archived
   * flags a declared flag depends on, which the service's list hides).
   */
  referable?: LiveObject[];
  /**
   * Objects of kinds the project does not manage (or the registry lacks), read by this kind for the
   * names its declarations use (a flag's cohorts while no cohort kind reads them), by kind name.
   */
  foreign?: Record<string, LiveObject[]>;
}

/** Paid features of a project's organization, when they were looked up. */
export interface Features {
  /** Tags are kept (without it the service drops them silently). */
  tagging: boolean;
  /** Restriction levels take effect (`ACCESS_CONTROL`; older organizations: advanced permissions). */
  access_control: boolean;
}

/**
 * Live state of one project, as read by `fetchLiveState` (the only effectful read stage) and consumed
 * by the pure planner. Plain data, so planner tests build it with builders and no network.
 */
export interface LiveProject {
  project: number;
  /** Per kind name: the kinds the project's files manage. */
  kinds: Record<string, LiveKind>;
  /**
   * The organization's paid features, when they were looked up (only when some kind's plan depends on
   * them): lets a kind say "the service ignores tags here" instead of planning the same change forever.
   */
  features?: Features;
}

/**
 * How many live objects the kind has in the project: the list's length, or for a change-scoped read
 * the count it learnt (undefined when it learnt none).
 */
export function liveTotal(kind: LiveKind): number | undefined {
  return kind.scoped === undefined ? kind.objects.length : kind.scoped.total;
}

/** The live state of one kind (empty when it was not read). */
export function liveOf<K extends LiveKind = LiveKind>(project: LiveProject, kind: string): K {
  return (project.kinds[kind] ?? { objects: [] }) as K;
}
