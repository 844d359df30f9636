import { describe, expect, it } from 'vitest';
import { gridShape } from './paneLayout';

describe('gridShape', () => {
  it('gives one pane the whole area', () => {
    expect(gridShape(1, 1400, 600)).toEqual({ columns: 1, rows: 1 });
  });

  it('puts two panes side by side on a wide screen and stacks them on a tall one', () => {
    expect(gridShape(2, 1400, 600)).toEqual({ columns: 2, rows: 1 });
    expect(gridShape(2, 700, 1200)).toEqual({ columns: 1, rows: 2 });
  });

  it('makes a 2×2 grid of four panes on a desktop screen', () => {
    expect(gridShape(4, 1400, 700)).toEqual({ columns: 2, rows: 2 });
  });

  it('uses three columns for three panes on a very wide screen, two rows on a squarer one', () => {
    expect(gridShape(3, 2400, 600)).toEqual({ columns: 3, rows: 1 });
    expect(gridShape(3, 1200, 900)).toEqual({ columns: 2, rows: 2 });
  });

  it('stays in one column on a narrow window', () => {
    expect(gridShape(3, 500, 900)).toEqual({ columns: 1, rows: 3 });
  });

  it('handles an area not measured yet', () => {
    expect(gridShape(3, 0, 0)).toEqual({ columns: 1, rows: 3 });
  });
});
