/** More combining marks than any script stacks on one character; Zalgo text and attacks use thousands. */
export const MAX_MARKS_PER_CHARACTER = 16;

const MARK_RUN = /\p{M}+/gu;

function firstCodePoints(run: string, count: number): string {
  let end = 0;
  for (let kept = 0; kept < count && end < run.length; kept++) end += (run.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return run.slice(0, end);
}

function codePointCount(run: string): number {
  let count = 0;
  for (let i = 0; i < run.length; i++) {
    const unit = run.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count++;
  }
  return count;
}

/**
 * Keeps at most MAX_MARKS_PER_CHARACTER combining marks on any one character of a terminal stream,
 * across chunk boundaries. Every terminal stores a cell's marks as one growing string, so 50,000
 * marks on one `e` cost each terminal that draws them (the host's mirror, every page, every reload)
 * quadratic time; no text a person reads needs more than a handful.
 */
export class CombiningMarkCap {
  /** Marks on the character the previous chunk ended with. */
  private carried = 0;

  cap(data: string): string {
    let carried = this.carried;
    let lastRunEnd = -1;
    let lastRunKept = 0;
    const capped = data.replace(MARK_RUN, (run: string, offset: number) => {
      const before = offset === 0 ? carried : 0;
      const count = codePointCount(run);
      const room = Math.max(0, MAX_MARKS_PER_CHARACTER - before);
      lastRunEnd = offset + run.length;
      lastRunKept = before + Math.min(count, room);
      return count <= room ? run : firstCodePoints(run, room);
    });
    carried = lastRunEnd === data.length ? lastRunKept : data.length === 0 ? carried : 0;
    this.carried = carried;
    return capped;
  }
}
