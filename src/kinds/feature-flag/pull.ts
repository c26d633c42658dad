/**
 * Live flags → YAML items (SPEC §2), such that planning the pulled files against the same project plans
 * nothing. The field table writes the switches and choices at their defaults (so a later edit in the
 * UI shows up as drift), the id pin and the description (the service's `name`), and `filters` in the
 * file's form (`pullFilters`): what the service adds on read left out (`cohort_name`, a group's copy
 * of the flag's aggregation, nulls), payloads as YAML values, a flag dependency by the other flag's
 * key (never its id, so the file serves other projects) and a cohort by name when the project has one
 * cohort of that name, else by id (the kit names them from the references the field declares), and
 * an encrypted payload as a `${NAME}` placeholder: its live value is never written.
 *
 * Archived flags, which the service's list hides, are not pulled; the archived list is read only to
 * name a flag a pulled flag depends on. Cohorts are named from the cohort kind's list.
 */
import type { LiveObject } from "../../plan/types.js";
import { Placeholder } from "../../pull/kinds.js";
import type { ServiceClient } from "../../service/index.js";
import { secretVariableName } from "../batch-export/service-rules/destinations.js";
import { findReferences } from "../define/references.js";
import { isObject, type Json, parsePayload } from "./filters.js";
import type { LiveFlag } from "./live.js";
import { FEATURE_FLAG } from "./name.js";
import { FLAG_REFERENCES } from "./references.js";
import { FILTER_KEYS, GROUP_KEYS, PROPERTY_KEYS } from "./schema.js";
import { featureFlagsApi } from "./service.js";

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

function pullProperty(prop: Json): Json {
  const out = known(prop, PROPERTY_KEYS);
  if (out.type === "cohort") {
    // Named by the kit where the project has one cohort of that name; else its id stays.
    delete out.key;
    const id = Number(out.value);
    if (out.value !== undefined && Number.isSafeInteger(id)) out.value = id;
    // By name: right after its type, as people write it.
    if (out.cohort !== undefined) {
      const { type: _type, cohort, ...rest } = out;
      return { type: "cohort", cohort, ...rest };
    }
  }
  return out;
}

/**
 * A live flag's filters in the file's form (their flags and cohorts already named by the kit where a
 * name is the object's own); encrypted payloads as placeholders.
 */
export function pullFilters(live: Json, flag: Readonly<Record<string, unknown>>): Json {
  const aggregation = live.aggregation_group_type_index ?? null;
  const filters: Json = {};
  if (aggregation !== null) filters.aggregation_group_type_index = aggregation;
  filters.groups = (Array.isArray(live.groups) ? live.groups.filter(isObject) : []).map((group) => {
    const out = known(group, GROUP_KEYS);
    if ((group.aggregation_group_type_index ?? null) === aggregation) delete out.aggregation_group_type_index;
    const properties = Array.isArray(group.properties) ? group.properties.filter(isObject) : [];
    if (properties.length > 0) out.properties = properties.map(pullProperty);
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
    Object.entries(payloads).map(([key, value]) =>
      flag.has_encrypted_payloads === true
        ? [key, new Placeholder(payloadVariable(String(flag.key), key))]
        : [key, parsePayload(value)],
    ),
  );
  for (const [key, value] of Object.entries(live)) {
    if (key in filters || !FILTER_KEYS.has(key) || key === "aggregation_group_type_index") continue;
    if (value !== null && value !== undefined) filters[key] = value;
  }
  return filters;
}

/**
 * The objects pulled flags name that the flag list does not hold: the archived flags, when a condition
 * names a flag the list lacks (read only then). Cohorts are the cohort kind's, named from its list.
 */
export async function pullForeign(
  client: ServiceClient,
  project: number,
  flags: readonly LiveFlag[],
): Promise<Record<string, LiveObject[]>> {
  const ids = new Set(flags.map((f) => String(f.id)));
  const named = flags.flatMap((f) => findReferences(f.filters, FLAG_REFERENCES));
  const unknownFlag = named.some(
    ({ spec, node }) => spec.kind === FEATURE_FLAG && !ids.has(String(node[spec.id])),
  );
  const archived = unknownFlag ? await featureFlagsApi(client).listAll(project, true) : [];
  return { [FEATURE_FLAG]: archived.map((f) => ({ id: f.id, name: f.key })) };
}
