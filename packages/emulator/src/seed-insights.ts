/**
 * Insights and tiles of a seed: insight records with the service's defaults, text cards with their
 * own ids and authors, and the older inline form of a tile's insight (`tiles: [{insight: {name,
 * query}}]`, still what templates and older seeds give) turned into an insight record the tile
 * points at. Runs after the dashboards are read, so tiles know their dashboard.
 */
import { randomBytes } from "node:crypto";
import { insightRecord } from "./records.js";
import type { DashboardRecord, InsightRecord, TextRecord, TileRecord } from "./types.js";

type Raw = Record<string, unknown>;

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isDict = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** A short id like the service's `generate_short_id` (8 characters of [A-Za-z0-9]). */
export function newShortId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return [...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join("");
}

export function seedInsight(raw: Raw, at: string): InsightRecord {
  if (!isInt(raw.id)) throw new Error('seed: an insight has a missing or invalid "id"');
  const team = raw.team_id ?? raw.project;
  if (!isInt(team)) throw new Error('seed: an insight has a missing or invalid "team_id"');
  const created = str(raw.created_at) ?? at;
  return insightRecord({
    id: raw.id,
    team_id: team,
    short_id: str(raw.short_id) ?? newShortId(),
    created_at: created,
    created_by: isInt(raw.created_by) ? raw.created_by : null,
    name: str(raw.name),
    derived_name: str(raw.derived_name),
    description: str(raw.description),
    filters: isDict(raw.filters) ? raw.filters : {},
    query: raw.query === undefined ? null : raw.query,
    order: isInt(raw.order) ? raw.order : null,
    deleted: raw.deleted === true,
    saved: raw.saved !== false,
    favorited: raw.favorited === true,
    is_sample: raw.is_sample === true,
    tags: Array.isArray(raw.tags) ? raw.tags.map((t) => String(t).trim().toLowerCase()) : [],
    updated_at: str(raw.updated_at) ?? created,
    last_modified_at: str(raw.last_modified_at) ?? created,
    last_modified_by: isInt(raw.last_modified_by) ? raw.last_modified_by : null,
    last_viewed_at: str(raw.last_viewed_at) ?? created,
  });
}

export interface SeededContent {
  insights: InsightRecord[];
  /** Next free insight and text ids. */
  nextInsight: number;
  nextText: number;
}

/**
 * Completes the dashboards' tiles in place (text cards, inline insights) and returns every insight,
 * the seed's own first.
 */
export function seedContent(
  rawInsights: Raw[],
  dashboards: DashboardRecord[],
  at: string,
  sequences: Raw,
): SeededContent {
  const insights = rawInsights.map((raw) => seedInsight(raw, at));
  let nextInsight = Math.max(
    isInt(sequences.insight) ? sequences.insight : 1,
    ...insights.map((i) => i.id + 1),
  );
  const textIds = dashboards.flatMap((d) =>
    d.tiles.map((t) => (isDict(t.text) && isInt(t.text.id) ? t.text.id : 0)),
  );
  let nextText = Math.max(isInt(sequences.text) ? sequences.text : 1, ...textIds.map((id) => id + 1));
  for (const d of dashboards) {
    for (const tile of d.tiles) {
      if (isDict(tile.text)) tile.text = seedText(tile.text, d, at, () => nextText++);
      if (!isInt(tile.insight_id) && isDict(tile.insight)) {
        const inline = tile.insight;
        const insight = seedInsight(
          { ...inline, id: isInt(inline.id) ? inline.id : nextInsight++, team_id: d.team_id },
          at,
        );
        if (insight.id >= nextInsight) nextInsight = insight.id + 1;
        insights.push(insight);
        tile.insight_id = insight.id;
      }
      delete tile.insight;
      completeTile(tile);
    }
  }
  return { insights, nextInsight, nextText };
}

function seedText(raw: Raw, d: DashboardRecord, at: string, nextId: () => number): TextRecord {
  return {
    id: isInt(raw.id) ? raw.id : nextId(),
    body: typeof raw.body === "string" || raw.body === null ? (raw.body as string | null) : "",
    created_by: isInt(raw.created_by) ? raw.created_by : d.created_by,
    last_modified_at: str(raw.last_modified_at) ?? d.created_at ?? at,
    last_modified_by: isInt(raw.last_modified_by) ? raw.last_modified_by : null,
  };
}

/** The display fields a tile row always has (nullable columns default to null). */
export function completeTile(tile: TileRecord): TileRecord {
  tile.insight_id ??= null;
  tile.text ??= null;
  tile.layouts ??= {};
  tile.color ??= null;
  tile.deleted ??= null;
  tile.show_description ??= null;
  tile.transparent_background ??= null;
  tile.filters_overrides ??= {};
  return tile;
}
