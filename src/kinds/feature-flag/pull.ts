/**
 * Live flags → YAML items (SPEC §2), such that planning the pulled files against the same project plans
 * nothing. The field table writes the switches and choices at their defaults (so a later edit in the
 * UI shows up as drift), the id pin and the description (the service's `name`); here comes
 * `filters` in the file's form: what the service adds on read left out (`cohort_name`, a group's copy
 * of the flag's aggregation, nulls), payloads as YAML values, a flag dependency by the other flag's key
 * (never its id, so the file serves other projects), a cohort by name when the project has one cohort
 * of that name (else by id), and an encrypted payload as a `${NAME}` placeholder: its live value is
 * never written.
 *
 * Archived flags, which the service's list hides, are not pulled; the archived list is read only to
 * name a flag a pulled flag depends on. The cohorts are read only when a flag has a cohort condition.
 */
import { Placeholder, type Pulled } from "../../pull/kinds.js";
import type { ServiceClient } from "../../service/index.js";
import { secretVariableName } from "../batch-export/service-rules/destinations.js";
import type { Cohort, FeatureFlag } from "./answers.js";
import { cohortIdsByName } from "./dependencies.js";
import { flagFields } from "./fields.js";
import { isObject, type Json, parsePayload } from "./filters.js";
import { asLive } from "./live.js";
import { FILTER_KEYS, GROUP_KEYS, PROPERTY_KEYS } from "./schema.js";
import { cohortsApi, featureFlagsApi } from "./service.js";

export interface PullNames {
  /** A flag id of the project → its key. */
  flagKey(id: string): string | undefined;
  /** A cohort id → the name to write, when that name is held by that cohort only. */
  cohortName(id: number): string | undefined;
}

/** The variable an encrypted payload's placeholder names: `<KEY>_PAYLOAD_<PAYLOAD KEY>`, upper-case. */
export function payloadVariable(flagKey: string, payloadKey: string): string {
  return secretVariableName(flagKey, `payload_${payloadKey}`);
}

/** The keys of `value` the file's schema knows (`known`), without nulls. */
function known(value: Json, keys?: ReadonlySet<string>): Json {
  return Object.fromEntries(
    Object.entries(value).filter(
      ([k, v]) => (keys === undefined || keys.has(k)) && v !== null && v !== undefined,
    ),
  );
}

function pullProperty(prop: Json, names: PullNames): Json {
  const out = known(prop, PROPERTY_KEYS);
  if (out.type === "flag" && out.key !== undefined)
    out.key = names.flagKey(String(out.key)) ?? String(out.key);
  if (out.type === "cohort") {
    const id = Number(out.value);
    const name = Number.isSafeInteger(id) ? names.cohortName(id) : undefined;
    delete out.key;
    if (name !== undefined) {
      delete out.value;
      return { type: "cohort", cohort: name, ...withoutType(out) };
    }
    if (Number.isSafeInteger(id)) out.value = id;
  }
  return out;
}

const withoutType = ({ type: _type, ...rest }: Json): Json => rest;

/** A live flag's filters in the file's form; encrypted payloads as placeholders (their variables listed). */
export function pullFilters(flag: FeatureFlag, names: PullNames): { filters: Json; variables: string[] } {
  const live = isObject(flag.filters) ? flag.filters : {};
  const aggregation = live.aggregation_group_type_index ?? null;
  const filters: Json = {};
  const variables: string[] = [];
  if (aggregation !== null) filters.aggregation_group_type_index = aggregation;
  filters.groups = (Array.isArray(live.groups) ? live.groups.filter(isObject) : []).map((group) => {
    const out = known(group, GROUP_KEYS);
    if ((group.aggregation_group_type_index ?? null) === aggregation) delete out.aggregation_group_type_index;
    const properties = Array.isArray(group.properties) ? group.properties.filter(isObject) : [];
    if (properties.length > 0) out.properties = properties.map((p) => pullProperty(p, names));
    else delete out.properties;
    return out;
  });
  filters.multivariate = isObject(live.multivariate)
    ? {
        variants: (Array.isArray(live.multivariate.variants)
          ? live.multivariate.variants.filter(isObject)
          : []
        ).map((variant) => known(variant)),
      }
    : null;
  const payloads = isObject(live.payloads) ? live.payloads : {};
  filters.payloads = Object.fromEntries(
    Object.entries(payloads).map(([key, value]) => {
      if (flag.has_encrypted_payloads !== true) return [key, parsePayload(value)];
      const variable = payloadVariable(flag.key, key);
      variables.push(variable);
      return [key, new Placeholder(variable)];
    }),
  );
  for (const [key, value] of Object.entries(live)) {
    if (key in filters || !FILTER_KEYS.has(key) || key === "aggregation_group_type_index") continue;
    if (value !== null && value !== undefined) filters[key] = value;
  }
  return { filters, variables };
}

/** The YAML item that declares `flag` as it is. */
export function flagItem(flag: FeatureFlag, names: PullNames): { item: Json; variables: string[] } {
  const item = flagFields.item(asLive(flag));
  const { filters, variables } = pullFilters(flag, names);
  const ordered: Json = {};
  for (const [key, value] of Object.entries(item)) {
    ordered[key] = value;
    if (key === "tags") ordered.filters = filters;
  }
  if (!("filters" in ordered)) ordered.filters = filters;
  return { item: ordered, variables };
}

function usesCohorts(flags: readonly FeatureFlag[]): boolean {
  return flags.some((f) =>
    (isObject(f.filters) && Array.isArray(f.filters.groups) ? f.filters.groups : []).some(
      (g) =>
        isObject(g) &&
        Array.isArray(g.properties) &&
        g.properties.some((p) => isObject(p) && p.type === "cohort"),
    ),
  );
}

function dependsOnUnknown(flags: readonly FeatureFlag[]): boolean {
  const ids = new Set(flags.map((f) => String(f.id)));
  return flags.some((f) =>
    (isObject(f.filters) && Array.isArray(f.filters.groups) ? f.filters.groups : []).some(
      (g) =>
        isObject(g) &&
        Array.isArray(g.properties) &&
        g.properties.some((p) => isObject(p) && p.type === "flag" && !ids.has(String(p.key))),
    ),
  );
}

export async function pullFlags(client: ServiceClient, project: number): Promise<Pulled> {
  const api = featureFlagsApi(client);
  const flags = await api.listAll(project);
  const archived = dependsOnUnknown(flags) ? await api.listAll(project, true) : [];
  const cohorts: Cohort[] = usesCohorts(flags) ? await cohortsApi(client).listAll(project) : [];
  const keys = new Map([...flags, ...archived].map((f) => [String(f.id), f.key]));
  const byName = cohortIdsByName(cohorts);
  const names: PullNames = {
    flagKey: (id) => keys.get(id),
    cohortName(id) {
      const name = cohorts.find((c) => c.id === id)?.name;
      return name !== undefined && name !== "" && byName.get(name)?.length === 1 ? name : undefined;
    },
  };
  const pulled: Pulled = { items: [], variables: [] };
  for (const flag of flags) {
    const { item, variables } = flagItem(flag, names);
    pulled.items.push(item);
    pulled.variables.push(...variables);
  }
  return pulled;
}
