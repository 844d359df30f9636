/** An entity the host versions: `seq` grows with every change (per project, kept across restarts). */
export interface Versioned {
  seq: number;
}

export type EntityMap<V> = Readonly<Record<string, V>>;

/**
 * `map` with `entity` under `key`, unless the map already holds a newer version of it: then `map`
 * itself. Events may arrive out of seq order (the host emits an inbox message while still
 * announcing the task change that caused it), so every entity keeps its own newest version.
 */
export function applyNewer<V extends Versioned>(map: EntityMap<V>, key: string, entity: V): EntityMap<V> {
  const known = map[key];
  if (known && known.seq > entity.seq) return map;
  return { ...map, [key]: entity };
}

export function without<V>(map: EntityMap<V>, key: string): EntityMap<V> {
  const copy = { ...map };
  delete copy[key];
  return copy;
}

const listed = new WeakMap<EntityMap<unknown>, readonly unknown[]>();

/**
 * The map's entities in its order, read once per map: several views list a work state's 10,000
 * tasks as it arrives, and a map is never changed in place (each change makes a new one).
 */
export function entitiesOf<V>(map: EntityMap<V>): readonly V[] {
  let entities = listed.get(map) as readonly V[] | undefined;
  if (!entities) {
    entities = Object.values(map);
    listed.set(map, entities);
  }
  return entities;
}

export function byKey<V>(items: readonly V[], key: (item: V) => string): EntityMap<V> {
  // A loop rather than Object.fromEntries: no pair array per item (a snapshot holds 10,000 tasks).
  const map: Record<string, V> = {};
  let repeated = false;
  for (const item of items) {
    const itemKey = key(item);
    repeated ||= Object.hasOwn(map, itemKey);
    map[itemKey] = item;
  }
  // Without a repeated key the items are the map's entities, in its order (ids are no array index).
  if (!repeated) listed.set(map, items);
  return map;
}
