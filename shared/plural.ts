/** "1 task", "3 tasks": a count with the word that fits it. */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
