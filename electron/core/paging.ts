import { REPLY_PAGE_BYTES } from '../../shared/protocol';

/** What a reply may still carry, shared by the lists one reply holds (a work-state part). */
export class PageBudget {
  private taken = 0;

  constructor(private left: number = REPLY_PAGE_BYTES) {}

  /** Takes `size` if it fits; the first item of a reply is always taken, so every page advances. */
  take(size: number): boolean {
    if (this.taken > 0 && size > this.left) return false;
    this.left -= size;
    this.taken++;
    return true;
  }
}

export interface Page<T> {
  items: T[];
  /** Items are left after this page. */
  more: boolean;
}

/**
 * As many of `rows` as fit the budget and `limit`, read lazily: a page of a huge list reads only
 * its own rows (and one more, to know whether more are left).
 */
export function takePage<T>(rows: Iterable<T>, budget: PageBudget, limit = Number.POSITIVE_INFINITY): Page<T> {
  const items: T[] = [];
  for (const row of rows) {
    if (items.length >= limit || !budget.take(JSON.stringify(row).length)) return { items, more: true };
    items.push(row);
  }
  return { items, more: false };
}

/** One page of a list continued by id: `next` is the id to continue after, or null at the end. */
export function pageOf<T extends { id: string }>(rows: Iterable<T>, limit?: number): { items: T[]; next: string | null } {
  const { items, more } = takePage(rows, new PageBudget(), limit);
  return { items, next: more ? (items.at(-1)?.id ?? null) : null };
}
