import { describe, expect, it } from "vitest";
import { checkTileInsights } from "../../../src/kinds/dashboard/tiles-check.js";
import {
  type DesiredTile,
  declareTiles,
  type TileInput,
} from "../../../src/kinds/dashboard/tiles-declare.js";
import {
  diffTiles,
  type LiveTile,
  movedLayouts,
  type PlannedTile,
} from "../../../src/kinds/dashboard/tiles-diff.js";
import { itemContext } from "./context.js";

function declare(yaml: string) {
  const { ctx, item, messages } = itemContext(yaml, "/dashboards/0", 'dashboard "KPIs"');
  const tiles = declareTiles(item.tiles as TileInput[], ctx);
  return { tiles, messages: messages() };
}

describe("declareTiles", () => {
  it("reads insight, insight_id and text tiles with their layouts", () => {
    const { tiles, messages } = declare(`dashboards:
  - name: KPIs
    tiles:
      - insight: Weekly signups
        layout: {x: 0, y: 0, w: 6, h: 5}
      - insight_id: 812
      - text: "## Notes"
        layout: {x: 6, y: 0, w: 6, h: 5}
`);
    expect(messages).toEqual([]);
    expect(tiles.map(({ source, ...t }) => t)).toEqual([
      { type: "insight", insight: "Weekly signups", layout: { x: 0, y: 0, w: 6, h: 5 } },
      { type: "insight", insight_id: 812 },
      { type: "text", text: "## Notes", layout: { x: 6, y: 0, w: 6, h: 5 } },
    ]);
    expect(tiles[2]?.source.line).toBe(7);
  });

  it("refuses a tile that is neither or both, an insight twice, and a layout past the grid's edge", () => {
    const { tiles, messages } = declare(`dashboards:
  - name: KPIs
    tiles:
      - layout: {x: 0, y: 0, w: 6, h: 5}
      - insight: A
        text: hi
      - insight: B
        layout: {x: 8, y: 0, w: 6, h: 5}
      - insight: B
`);
    expect(messages).toEqual([
      'posthog/kpis.yaml:4:9: error: tile 1 of dashboard "KPIs" says neither what it shows: give insight:, insight_id: or text:',
      'posthog/kpis.yaml:5:9: error: tile 2 of dashboard "KPIs" gives insight and text: a tile is one insight or one text, give exactly one',
      'posthog/kpis.yaml:8:17: error: the layout of tile 3 of dashboard "KPIs" passes the grid\'s right edge: x 8 + w 6 is more than 12 columns',
      'posthog/kpis.yaml:9:9: error: insight "B" is on dashboard "KPIs" twice (first at posthog/kpis.yaml:7:9): a dashboard shows an insight once',
    ]);
    expect(tiles).toHaveLength(1);
  });

  it("warns about overlapping layouts and tiles listed out of their layout order", () => {
    const { messages } = declare(`dashboards:
  - name: KPIs
    tiles:
      - text: one
        layout: {x: 0, y: 5, w: 6, h: 5}
      - text: two
        layout: {x: 0, y: 0, w: 12, h: 6}
`);
    expect(messages).toEqual([
      'posthog/kpis.yaml:6:9: warning: tile 2 of dashboard "KPIs" is listed after tile 1 but its layout puts it first: the dashboard shows tiles by layout (row, then column)',
      'posthog/kpis.yaml:7:17: warning: tile 2 of dashboard "KPIs" overlaps tile 1: the dashboard pushes one of them down, so it will not show where the file says',
    ]);
  });
});

describe("checkTileInsights", () => {
  const tile = (t: Partial<DesiredTile>): DesiredTile =>
    ({ type: "insight", source: { file: "f.yaml", line: 3, column: 9 }, ...t }) as DesiredTile;

  it("names tiles whose insight no file declares, or declares deleted", () => {
    const problems = checkTileInsights(
      [
        {
          name: "KPIs",
          tiles: [
            tile({ insight: "Weekly signup" }),
            tile({ insight: "Old" }),
            tile({ insight_id: 9 }),
            tile({ insight: "Weekly signups" }),
          ],
        },
      ],
      [
        { name: "Weekly signups", deleted: false },
        { name: "Old", deleted: true },
        { name: "Gone", id: 9, deleted: true },
      ],
    );
    expect(problems.map((p) => p.message)).toEqual([
      'a tile of dashboard "KPIs" shows insight "Weekly signup", which no file declares for this project under insights: (did you mean "Weekly signups"?)',
      'a tile of dashboard "KPIs" shows insight "Old", which the files delete (deleted: true)',
      'a tile of dashboard "KPIs" shows insight id 9, which the files delete (deleted: true)',
    ]);
  });
});

describe("diffTiles", () => {
  const live = (over: Partial<LiveTile>): LiveTile => ({
    id: 1,
    insightId: null,
    insightName: null,
    textId: null,
    text: null,
    layouts: {},
    ...over,
  });
  const LAYOUT = { x: 0, y: 0, w: 6, h: 5 };

  it("is empty when every declared tile is live where the file puts it", () => {
    const planned: PlannedTile[] = [
      { label: 'insight "A"', insightId: 7, layout: LAYOUT },
      { label: 'text "Notes"', text: "Notes" },
    ];
    const tiles = [
      live({ id: 1, insightId: 7, layouts: { sm: { x: "0", y: 0, w: 6, h: 5, minW: 3 }, xs: {} } }),
      live({ id: 2, textId: 4, text: "Notes\n" }),
    ];
    expect(diffTiles(planned, tiles)).toEqual({ add: [], remove: [], move: [], edit: [] });
  });

  it("adds, removes, moves and edits, naming tiles by insight or text, never by tile id", () => {
    const planned: PlannedTile[] = [
      { label: 'insight "A"', insightId: 7, layout: { x: 6, y: 0, w: 6, h: 5 } },
      { label: 'insight "New"', insightName: "New", layout: LAYOUT },
      { label: 'text "Edited"', text: "Edited" },
      { label: 'text "Kept"', text: "Kept" },
    ];
    const tiles = [
      live({ id: 1, insightId: 7, layouts: { sm: LAYOUT } }),
      live({ id: 2, insightId: 8, insightName: "Gone" }),
      live({ id: 3, textId: 3, text: "Kept" }),
      live({ id: 4, textId: 4, text: "Original" }),
    ];
    const diff = diffTiles(planned, tiles);
    expect(diff.add.map((t) => t.label)).toEqual(['insight "New"']);
    expect(diff.remove.map((r) => r.label)).toEqual(['insight "Gone"']);
    expect(diff.move.map((m) => [m.label, m.before, m.after])).toEqual([
      ['insight "A"', LAYOUT, { x: 6, y: 0, w: 6, h: 5 }],
    ]);
    expect(diff.edit.map((e) => [e.label, e.before, e.after, e.live.id])).toEqual([
      ['text "Edited"', "Original", "Edited", 4],
    ]);
  });

  it("moves only the sm layout, keeping the other breakpoints and keys", () => {
    const tile = live({
      layouts: { sm: { x: 0, y: 0, w: 6, h: 5, minW: 3 }, xs: { x: 0, y: 0, w: 1, h: 5 } },
    });
    expect(movedLayouts(tile, { x: 6, y: 1, w: 6, h: 4 })).toEqual({
      sm: { x: 6, y: 1, w: 6, h: 4, minW: 3 },
      xs: { x: 0, y: 0, w: 1, h: 5 },
    });
  });
});
