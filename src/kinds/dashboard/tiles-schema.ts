/**
 * The schema of a dashboard's `tiles:` (SPEC §2 "Tiles"): when present, the whole set of the
 * dashboard's tiles, each an insight (`insight:` by name, or `insight_id:` by id) or a text card
 * (`text:`), with an optional place on the 12-column grid. Which one of the three a tile is, and that
 * its layout fits the grid, are checked by tiles-declare.ts (a schema cannot say either clearly).
 */
import type { SchemaNode } from "../../config/kinds.js";

/** The dashboard grid's width in columns (the service's `sm` breakpoint). */
export const GRID_COLUMNS = 12;

export const layoutSchema: SchemaNode = {
  type: "object",
  description:
    "Where the tile sits on the dashboard's 12-column grid (the service's `sm` layout): column x (0-11), row y, width w (1-12) and height h in rows; x + w must not pass 12. Left out: the service places the tile.",
  additionalProperties: false,
  required: ["x", "y", "w", "h"],
  properties: {
    x: { type: "integer", description: "First column, from 0.", minimum: 0, maximum: GRID_COLUMNS - 1 },
    y: { type: "integer", description: "First row, from 0.", minimum: 0 },
    w: { type: "integer", description: "Width in columns.", minimum: 1, maximum: GRID_COLUMNS },
    h: { type: "integer", description: "Height in rows.", minimum: 1 },
  },
};

export const tileSchema: SchemaNode = {
  type: "object",
  description: "One tile: `insight:`, `insight_id:` or `text:` (exactly one), and optionally its `layout`.",
  additionalProperties: false,
  properties: {
    insight: {
      type: "string",
      description: "The name of an insight declared under `insights:` for the same project.",
      minLength: 1,
    },
    insight_id: {
      type: "integer",
      description:
        "An insight by its id: for insights whose names repeat or are empty (pull writes it for those).",
      minimum: 1,
    },
    text: {
      type: "string",
      description: "A text card: its markdown (at most 4,000 characters).",
      maxLength: 4000,
    },
    layout: layoutSchema,
  },
};

export const tilesSchema: SchemaNode = {
  type: "array",
  description:
    "When present, the whole set of the dashboard's tiles, listed in the order the dashboard shows them (by layout: row, then column): tiles not listed are removed (an insight stays, only its tile goes). Left out: tiles are not managed.",
  items: tileSchema,
};
