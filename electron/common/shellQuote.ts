/** One word for a POSIX shell: single-quoted, with each `'` closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Characters no shell gives a meaning to (zsh expands a leading `=`, fish a leading `%`). */
const PLAIN_WORD = /^[A-Za-z0-9_@+:,./-][A-Za-z0-9_@%+=:,./-]*$/;

/**
 * An argv as one shell line that runs exactly those words (the way `docker run`, `env` and
 * `timeout` keep their argv): plain words stay readable, every other word is quoted.
 */
export function shellLine(words: readonly string[]): string {
  return words.map((word) => (PLAIN_WORD.test(word) ? word : shellQuote(word))).join(' ');
}
