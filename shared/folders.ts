import path from 'node:path';

/**
 * True when `candidate` is `root` or lies below it (both canonical). The CLI picks a task's folder
 * with the same test the host then applies to it. Node-only: the renderer does not import it.
 */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
