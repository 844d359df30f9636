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

export function byKey<V>(items: readonly V[], key: (item: V) => string): EntityMap<V> {
  // A loop rather than Object.fromEntries: no pair array per item (a snapshot holds 10,000 tasks).
  const map: Record<string, V> = {};
  for (const item of items) map[key(item)] = item;
  return map;
}
