import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh folder under the OS temp dir; short, so Unix socket paths inside it stay valid. */
export function makeTempDir(prefix = 'drover-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
