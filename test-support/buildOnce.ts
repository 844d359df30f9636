import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The checkout's root, from sources (test-support/) or from a bundle (dist/bench/). */
function findRepoRoot(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'bin', 'drover'))) return dir;
  }
  throw new Error(`no Drover checkout above ${from}`);
}

export const REPO_ROOT = findRepoRoot(__dirname);
export const CLI_PATH = path.join(REPO_ROOT, 'bin', 'drover');

/**
 * vitest globalSetup: the CLI and host tests run the real bundled `drover`, so bundle it first
 * (fast); the renderer is built only when missing (`npm test` builds it before the tests).
 */
export default function setup(): void {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build-node.mjs')], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'renderer', 'index.html'))) {
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
  }
}
