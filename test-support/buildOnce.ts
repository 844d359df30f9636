import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..');
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
