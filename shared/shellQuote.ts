/** One word for a POSIX shell: single-quoted, with each `'` closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
