import { describe, expect, it } from 'vitest';
import { applyNewer, byKey, entitiesOf, without } from './versioned';

const entity = (id: string, seq: number, name = id) => ({ id, seq, name });

describe('applyNewer', () => {
  it('adds an entity the map does not hold yet', () => {
    expect(applyNewer({}, 'a', entity('a', 1))).toEqual({ a: entity('a', 1) });
  });

  it('replaces a version that is not newer, and keeps the map when it holds a newer one', () => {
    const map = { a: entity('a', 5, 'five') };
    expect(applyNewer(map, 'a', entity('a', 6, 'six')).a?.name).toBe('six');
    expect(applyNewer(map, 'a', entity('a', 5, 'again')).a?.name).toBe('again');
    expect(applyNewer(map, 'a', entity('a', 4, 'four'))).toBe(map);
  });

  it('never changes the map it was given', () => {
    const map = { a: entity('a', 1) };
    applyNewer(map, 'b', entity('b', 2));
    expect(map).toEqual({ a: entity('a', 1) });
  });
});

describe('without', () => {
  it('copies the map without the key', () => {
    const map = { a: entity('a', 1), b: entity('b', 1) };
    expect(without(map, 'a')).toEqual({ b: entity('b', 1) });
    expect(map).toHaveProperty('a');
  });
});

describe('entitiesOf', () => {
  it('lists a map once (the same list for the same map), in its order, and a changed map anew', () => {
    const map = applyNewer({ a: entity('a', 1) }, 'b', entity('b', 1));
    expect(entitiesOf(map)).toEqual([entity('a', 1), entity('b', 1)]);
    expect(entitiesOf(map)).toBe(entitiesOf(map));
    expect(entitiesOf(applyNewer(map, 'a', entity('a', 2)))).toEqual([entity('a', 2), entity('b', 1)]);
  });

  it('takes the items byKey was given as the list of its map, unless a key repeats', () => {
    const items = [entity('a', 1), entity('b', 1)];
    expect(entitiesOf(byKey(items, (item) => item.id))).toBe(items);
    const repeated = [entity('a', 1), entity('a', 2, 'again')];
    expect(entitiesOf(byKey(repeated, (item) => item.id))).toEqual([entity('a', 2, 'again')]);
  });
});
