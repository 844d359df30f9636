/** "1 task", "3 tasks": a count with the word that fits it. */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** How many names a message lists before it says how many more there are. */
const NAMES_SHOWN = 8;

/** "a, b, c", or the first eight "and 4 more": names in a message, never a wall of them. */
export function listNames(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  return names.length > NAMES_SHOWN ? `${shown} and ${names.length - NAMES_SHOWN} more` : shown;
}
