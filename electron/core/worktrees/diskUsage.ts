import fs from 'node:fs';
import path from 'node:path';

/**
 * Bytes a folder takes on disk (allocated blocks, as `du` counts them), not following symlinks and
 * counting a hard-linked file once. A file that vanishes while it is counted is skipped.
 */
export async function diskUsage(root: string): Promise<number> {
  const seen = new Set<string>();
  let bytes = 0;
  const visit = async (folder: string): Promise<void> => {
    const entries = await fs.promises.readdir(folder, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map(async (entry) => {
        const full = path.join(folder, entry.name);
        const stat = await fs.promises.lstat(full).catch(() => null);
        if (!stat) return;
        const key = `${stat.dev}:${stat.ino}`;
        if (stat.nlink > 1 && seen.has(key)) return;
        seen.add(key);
        bytes += stat.blocks * 512;
        if (stat.isDirectory()) await visit(full);
      }),
    );
  };
  const top = await fs.promises.lstat(root).catch(() => null);
  if (!top) return 0;
  bytes += top.blocks * 512;
  await visit(root);
  return bytes;
}
