/**
 * A fourth kind that exists only in the tests, with a verb of its own: a project's banners
 * (`/api/projects/{id}/banners/` of a fake service), with a long-text message, a level in words
 * (`info` = 1, `warning` = 2) and a `published` switch the service flips through its own endpoints
 * (`POST …/publish/`, `POST …/unpublish/`), never by PATCH. Its folder is all there is: the field
 * table, two verbs of its own next to the shared ones, and four requests. Every stage (schema, loader,
 * planner, sort, plan schema, renderers, executor, pull) takes it from the registry it is given
 * (test/kinds/fourth-kind.test.ts).
 */
import type { ServiceClient } from "../../../src/index.js";
import {
  defineKind,
  fieldTable,
  flag,
  integer,
  longText,
  text,
  words,
} from "../../../src/kinds/define/index.js";
import type { Verb } from "../../../src/kinds/index.js";
import { CREATE, DELETE, UPDATE } from "../../../src/kinds/shared/verbs.js";
import type { LiveObject } from "../../../src/plan/types.js";
import { answerObject, listPage } from "../../../src/service/index.js";

export interface LiveBanner extends LiveObject {
  id: number;
  name: string;
  message: string;
  level: 1 | 2;
  published: boolean;
}

const path = (project: number, rest = "") => `/api/projects/${project}/banners/${rest}`;
/** Its answers' shape, checked before anything reads them (SPEC §8). */
const BANNER = answerObject(
  {
    id: { type: "integer" },
    name: { type: "string" },
    message: { type: "string" },
    level: { enum: [1, 2] },
    published: { type: "boolean" },
  },
  ["id", "name", "message", "level", "published"],
);
/** The shapes of its answers, by name: its requests name them as `expect`, the registry lists them. */
const ANSWERS = { bannerPage: listPage(BANNER), banner: { schema: BANNER } };

const list = (client: ServiceClient, project: number) =>
  client.listAll<LiveBanner>(path(project), {}, ANSWERS.bannerPage);

/** A request on the live banner `id` (`rest` after its path), with the planned body, if any. */
function request(method: "PATCH" | "DELETE" | "POST", rest = ""): Verb["send"] {
  return async (client, action, id, body) => {
    await client.request({
      method,
      path: path(action.object.project, `${id}/${rest}`),
      ...(body ? { body } : {}),
    });
    return { id, notes: [] };
  };
}

/** Its own verbs: shown `▲ publish` / `▼ unpublish`, after updates, unpublishing guarded. */
export const PUBLISH: Verb = {
  name: "publish",
  symbol: "▲",
  word: "publish",
  phrase: (n) => `${n} to publish`,
  step: 5,
  destructive: false,
  sides: { before: "required", after: "required" },
  refreshes: () => [["published"]],
  send: request("POST", "publish/"),
};

export const UNPUBLISH: Verb = {
  ...PUBLISH,
  name: "unpublish",
  symbol: "▼",
  word: "unpublish",
  phrase: (n) => `${n} to unpublish`,
  destructive: true,
  send: request("POST", "unpublish/"),
};

export const bannerFields = fieldTable({
  name: text("The banner's name: its identity.", { minLength: 1 }, { required: true }),
  id: integer("Pinned id.", { minimum: 1 }),
  message: longText("What it says."),
  level: words({ info: 1, warning: 2 }, "How loud it is."),
  published: flag("Shown to users.", { compare: "none", toggles: { on: PUBLISH, off: UNPUBLISH } }),
  deleted: flag("Delete it."),
});

export const bannerKind = defineKind({
  name: "banner",
  key: "banners",
  words: { one: "banner", many: "banners" },
  schema: { list: "Banners of the project.", item: "A banner.", def: "banner" },
  fields: bannerFields,
  verbs: [
    CREATE,
    { ...UPDATE, send: request("PATCH") },
    { ...DELETE, send: request("DELETE") },
    PUBLISH,
    UNPUBLISH,
  ],
  service: {
    list,
    async findByName(client, project, name) {
      return (await list(client, project)).filter((b) => b.name === name).map((b) => b.id);
    },
    async create(client, project, body) {
      const created = await client.request<LiveBanner>({
        method: "POST",
        path: path(project),
        body,
        expect: ANSWERS.banner,
      });
      return { id: created.id, notes: [] };
    },
  },
  answers: ANSWERS,
});
