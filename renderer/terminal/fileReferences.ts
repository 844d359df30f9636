/** A `path:line` or `path:line:column` in a line of output, as compilers, linters and test runners print them. */
export interface FileReference {
  /** Where it starts and ends in the line (string indexes, end exclusive). */
  start: number;
  end: number;
  file: string;
  line: number;
  column: number | undefined;
}

// A path: absolute or relative, of word characters, dots, @, + and -; not one inside a URL (after
// `:` or `/`) nor the tail of a longer word. `localhost:8080` or a clock's `12:30` are not files:
// a path has a folder or an extension.
const FILE_REFERENCE = /(?<![\w./:@+-])((?:\.{1,2}\/|\/)?(?:[\w@+-][\w.@+-]*\/)*[\w@+-][\w.@+-]*):(\d+)(?::(\d+))?(?![\d\w])/g;
const LOOKS_LIKE_A_FILE = /\/|\.[A-Za-z][\w-]*$/;

export function findFileReferences(text: string): FileReference[] {
  const found: FileReference[] = [];
  for (const match of text.matchAll(FILE_REFERENCE)) {
    const [whole, file = '', line = '', column] = match;
    if (!LOOKS_LIKE_A_FILE.test(file) || Number(line) < 1) continue;
    found.push({ start: match.index, end: match.index + whole.length, file, line: Number(line), column: column === undefined || Number(column) < 1 ? undefined : Number(column) });
  }
  return found;
}
