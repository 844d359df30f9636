export interface GridShape {
  columns: number;
  rows: number;
}

/** Roughly 100×30 cells of a 12px monospace font: the shape agent CLIs are drawn for. */
const TERMINAL_ASPECT = 1.9;

/** The area of the largest terminal-shaped box that fits in a pane of this size. */
function usableArea(paneWidth: number, paneHeight: number): number {
  const width = Math.min(paneWidth, paneHeight * TERMINAL_ASPECT);
  return (width * width) / TERMINAL_ASPECT;
}

/**
 * How to lay `count` panes out in a `width`×`height` area: the column count that gives each
 * terminal the most usable room; on a tie, fewer columns (wider panes suit terminals better).
 */
export function gridShape(count: number, width: number, height: number): GridShape {
  if (count <= 1 || width <= 0 || height <= 0) return { columns: 1, rows: Math.max(1, count) };
  let best: GridShape = { columns: 1, rows: count };
  let bestArea = usableArea(width, height / count);
  for (let columns = 2; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const area = usableArea(width / columns, height / rows);
    if (area > bestArea * 1.001) {
      best = { columns, rows };
      bestArea = area;
    }
  }
  return best;
}
