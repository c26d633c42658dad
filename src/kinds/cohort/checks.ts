/**
 * The offline checks of a declared cohort (`validate`): what the service would refuse that the file
 * alone shows (service-api.md §12.3, §12.5). A static cohort is a container only (SPEC §2): its
 * members come from uploads the tool never manages, and the service refuses criteria on it. Each
 * condition names what it needs, and only what it may: another cohort by `cohort:` or `value:`, an
 * action by `action:` or `key:` where `event_type` is actions, a value where its operator takes one.
 */
import type { ObjectContext } from "../../config/context.js";
import { isPlainObject } from "../../plan/values.js";
import { type Json, leaves } from "./filters.js";

const NO_VALUE = new Set(["is_set", "is_not_set"]);

/** Reports at each condition's key what the service would refuse. */
export function checkCohort(input: Json, ctx: ObjectContext): void {
  if (input.is_static === true && input.filters !== undefined) {
    ctx.error(
      "/filters",
      `a static cohort is a container of the members uploaded to it: its criteria are not managed, and the service refuses them ("Editing the criteria of a static cohort is not supported yet. Create a new static cohort instead."); remove \`filters\`, or declare a dynamic cohort`,
      "key",
    );
    return;
  }
  for (const { leaf, pointer } of leaves(input.filters)) checkLeaf(leaf, `/filters${pointer}`, ctx);
}

function checkLeaf(leaf: Json, at: string, ctx: ObjectContext): void {
  const has = (key: string) => leaf[key] !== undefined && leaf[key] !== null;
  const where = `${leaf.type} condition`;
  const only = (key: string, rule: string) => {
    if (has(key)) ctx.error(`${at}/${key}`, `\`${key}\` belongs to ${rule} (in a ${where})`, "key");
  };
  if (leaf.type !== "cohort") only("cohort", "cohort conditions");
  if (leaf.type !== "behavioral" || leaf.event_type !== "actions") {
    only("action", "behavioral conditions with `event_type: actions`");
  }
  if (leaf.type !== "behavioral" || leaf.seq_event_type !== "actions") {
    only("seq_action", "behavioral conditions with `seq_event_type: actions`");
  }
  const oneOf = (name: string, id: string, what: string) => {
    if (has(name) === has(id)) {
      ctx.error(
        at,
        `a ${where} names ${what} by \`${name}:\` (its name) or \`${id}:\` (its id), one of them`,
      );
    }
  };
  switch (leaf.type) {
    case "cohort":
      oneOf("cohort", "value", "the other cohort");
      if (has("value") && !/^\d+$/.test(String(leaf.value))) {
        ctx.error(`${at}/value`, `a cohort condition's \`value\` is the other cohort's id (a number)`);
      }
      return;
    case "behavioral":
      if (!has("value")) ctx.error(at, `a behavioral condition needs \`value\` (performed_event, …)`);
      if (!has("event_type")) ctx.error(at, "a behavioral condition needs `event_type` (events or actions)");
      if (leaf.event_type === "actions") oneOf("action", "key", "its action");
      else if (!has("key")) ctx.error(at, "a behavioral condition on an event needs `key`, the event's name");
      if (leaf.seq_event_type === "actions" && has("seq_action") && has("seq_event")) {
        oneOf("seq_action", "seq_event", "its second action");
      }
      return;
    default:
      if (!has("key")) ctx.error(at, `a ${where} needs \`key\`, the property's name`);
      if (!has("value") && !NO_VALUE.has(String(leaf.operator))) {
        ctx.error(at, `a ${where} needs \`value\` (only is_set and is_not_set take none)`);
      }
      if (isPlainObject(leaf.value)) ctx.error(`${at}/value`, `a ${where}'s \`value\` is a value or a list`);
  }
}
