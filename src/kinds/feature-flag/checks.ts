/**
 * The rules of one declared flag that the schema cannot say, checked offline (`validate`), each
 * reported at its place with the flag named: variant rollouts summing to 100 and unique variant keys,
 * group variants and payload keys among the variant keys (`true` for a boolean flag), `archived` only
 * with `active: false`, encrypted payloads only on remote-configuration flags and only as `${NAME}`
 * references, flag properties naming a flag by key, cohort properties by name or id. Cycles between
 * flags need every declaration of a project: `dependencyCycles` in dependencies.ts; duplicate keys are
 * the loader's rule across files.
 */
import { isObject, type Json } from "./filters.js";

/** Where problems go: an `ObjectContext` satisfies it (pointers relative to the flag). */
export interface CheckSink {
  readonly owner: string;
  error(pointer: string, message: string, which?: "key" | "value"): void;
}

/** A `${NAME}` reference and nothing else (the form encrypted payloads must take). */
const REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

function variants(filters: Json): Json[] {
  const multivariate = filters.multivariate;
  return isObject(multivariate) && Array.isArray(multivariate.variants)
    ? multivariate.variants.filter(isObject)
    : [];
}

/** A sum of percentages as people write it: 99.99, not 99.98999999999999. */
function shown(sum: number): string {
  return String(Math.round(sum * 1e6) / 1e6);
}

function checkVariants(filters: Json, sink: CheckSink): Set<string> {
  const list = variants(filters);
  const keys = new Set<string>();
  if (list.length === 0) return keys;
  const sum = list.reduce(
    (total, v) => total + (typeof v.rollout_percentage === "number" ? v.rollout_percentage : 0),
    0,
  );
  if (Math.round(sum * 1e6) !== 100e6) {
    sink.error(
      "/filters/multivariate/variants",
      `the variant rollout percentages of ${sink.owner} sum to ${shown(sum)}, not 100`,
    );
  }
  list.forEach((variant, i) => {
    const key = String(variant.key);
    if (keys.has(key)) {
      sink.error(
        `/filters/multivariate/variants/${i}/key`,
        `variant "${key}" is listed twice in ${sink.owner}`,
      );
    }
    keys.add(key);
  });
  return keys;
}

function checkGroups(filters: Json, keys: ReadonlySet<string>, sink: CheckSink): void {
  if (!Array.isArray(filters.groups)) return;
  filters.groups.forEach((group, g) => {
    if (!isObject(group)) return;
    if (typeof group.variant === "string" && !keys.has(group.variant)) {
      sink.error(
        `/filters/groups/${g}/variant`,
        `group ${g + 1} of ${sink.owner} serves variant "${group.variant}", which is not one of its variants${keys.size > 0 ? ` (${[...keys].join(", ")})` : " (it has none)"}`,
      );
    }
    if (!Array.isArray(group.properties)) return;
    group.properties.forEach((prop, p) => {
      if (isObject(prop)) checkProperty(prop, `/filters/groups/${g}/properties/${p}`, g, sink);
    });
  });
}

function checkProperty(prop: Json, pointer: string, group: number, sink: CheckSink): void {
  const where = `group ${group + 1} of ${sink.owner}`;
  const operator = prop.operator;
  if (prop.type === "flag") {
    if (typeof prop.key !== "string" || !/^[a-zA-Z0-9_-]+$/.test(prop.key)) {
      sink.error(
        `${pointer}`,
        `a flag condition in ${where} names the other flag by its key (key: other-flag-key)`,
      );
    }
    if (operator !== undefined && operator !== "flag_evaluates_to") {
      sink.error(`${pointer}/operator`, `a flag condition in ${where} takes the operator flag_evaluates_to`);
    }
    if (prop.cohort !== undefined)
      sink.error(`${pointer}/cohort`, `\`cohort\` belongs to cohort conditions (in ${where})`);
    return;
  }
  if (prop.type === "cohort") {
    const byName = prop.cohort !== undefined;
    const byId = prop.value !== undefined;
    if (byName === byId) {
      sink.error(
        pointer,
        `a cohort condition in ${where} names its cohort by \`cohort:\` (its name) or \`value:\` (its id), one of them`,
      );
    } else if (byId && !(Number.isInteger(prop.value) && (prop.value as number) > 0)) {
      sink.error(
        `${pointer}/value`,
        `a cohort condition's \`value\` in ${where} is the cohort's id (a number)`,
      );
    }
    return;
  }
  if (prop.cohort !== undefined)
    sink.error(`${pointer}/cohort`, `\`cohort\` belongs to cohort conditions (in ${where})`);
  if (prop.key === undefined)
    sink.error(pointer, `a ${String(prop.type)} condition in ${where} needs the property's \`key\``);
  if (operator === "in" || operator === "not_in") {
    sink.error(`${pointer}/operator`, `the operator ${operator} in ${where} is only for cohort conditions`);
  }
  if (operator === "flag_evaluates_to") {
    sink.error(
      `${pointer}/operator`,
      `the operator flag_evaluates_to in ${where} is only for flag conditions`,
    );
  }
}

function checkPayloads(input: Json, filters: Json, keys: ReadonlySet<string>, sink: CheckSink): void {
  const payloads = filters.payloads;
  if (!isObject(payloads)) return;
  const multivariate = variants(filters).length > 0 || isObject(filters.multivariate);
  const declaresVariants = "multivariate" in filters;
  for (const [key, value] of Object.entries(payloads)) {
    const pointer = `/filters/payloads/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (multivariate && !keys.has(key)) {
      sink.error(
        pointer,
        `payload "${key}" of ${sink.owner} is for no variant: its variants are ${[...keys].join(", ") || "none"}`,
        "key",
      );
    } else if (!multivariate && declaresVariants && key !== "true") {
      sink.error(
        pointer,
        `payload "${key}" of ${sink.owner}: a boolean flag has only the payload "true"`,
        "key",
      );
    }
    if (input.has_encrypted_payloads === true && !(typeof value === "string" && REFERENCE.test(value))) {
      sink.error(
        pointer,
        `payload "${key}" of ${sink.owner} is encrypted (has_encrypted_payloads): it is a secret, write it as one \${NAME} reference to an environment variable`,
      );
    }
  }
}

/** Every offline rule of one schema-valid flag item. */
export function checkFlag(input: Json, sink: CheckSink): void {
  if (input.archived === true && input.active !== false) {
    sink.error(
      "/archived",
      `${sink.owner} is archived but not declared active: false: the service archives only disabled flags (declare active: false)`,
      "key",
    );
  }
  if (input.has_encrypted_payloads === true && input.is_remote_configuration === false) {
    sink.error(
      "/has_encrypted_payloads",
      `${sink.owner} has encrypted payloads but is_remote_configuration: false: only remote configuration flags encrypt their payloads`,
      "key",
    );
  }
  if (!isObject(input.filters)) return;
  const keys = checkVariants(input.filters, sink);
  checkGroups(input.filters, keys, sink);
  checkPayloads(input, input.filters, keys, sink);
}

/** Payload pointers that hold secrets (those of flags with encrypted payloads). */
export function encryptedPayloadPointers(input: unknown): string[] {
  if (!isObject(input) || input.has_encrypted_payloads !== true || !isObject(input.filters)) return [];
  const payloads = input.filters.payloads;
  return isObject(payloads)
    ? Object.keys(payloads).map((k) => `/filters/payloads/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`)
    : [];
}

/**
 * A plan-time rule: the service refuses to create a flag whose `filters` hold no release condition
 * (`filters: {}`, `groups: []`, or filters without `groups`: "Feature flags must have at least one
 * condition set (group)."). A flag declared without `filters` is created with the model's default,
 * `{"groups": []}`, which matches no one: no problem, and `createNote` says what it means. Undefined
 * when the create is fine.
 */
export function createProblem(filters: Json | undefined, owner: string): string | undefined {
  if (filters === undefined) return undefined;
  const groups = filters.groups;
  if (Array.isArray(groups) && groups.length > 0) return undefined;
  const written =
    Object.keys(filters).length === 0
      ? "filters: {}"
      : Array.isArray(groups)
        ? "groups: []"
        : "filters without groups";
  return `${owner} does not exist yet and its filters declare no release condition (${written}): the service creates a flag only with at least one in filters.groups, or with no filters at all`;
}

/** What a create without `filters` makes: a flag with no release condition, on for no one. */
export function createNote(filters: Json | undefined): string | undefined {
  if (filters !== undefined) return undefined;
  return "declared without filters: the service creates it with no release condition (groups: []), so it is on for no one until filters.groups declares one";
}
