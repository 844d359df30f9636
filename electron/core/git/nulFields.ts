

/** NUL-separated names, without the empty tail. */
export function splitNul(output: string): string[] {
  return output.split('\0').filter((name) => name.length > 0);
}

/** Paths as git's `-z --stdin` reads them: each ended by a NUL. */
export const nulList = (paths: readonly string[]): string => paths.map((file) => `${file}\0`).join('');
