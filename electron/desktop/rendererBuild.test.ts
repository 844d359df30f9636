import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';

const ROOT = path.resolve(__dirname, '../..');

describe('the renderer build (what npm run serve and the desktop app build first)', () => {
  let dir: string;
  afterEach(() => removeDir(dir));

  it('prints no Vite warning: the config loads as the loader Vite is moving to, and no chunk is over its limit', () => {
    dir = makeTempDir('drover-renderer-build-');
    const script = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['build:renderer'] ?? '';
    const [command, ...args] = script.split(' ');
    expect(command).toBe('vite');
    const build = spawnSync(path.join(ROOT, 'node_modules/.bin/vite'), [...args, '--outDir', dir, '--emptyOutDir'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const output = `${build.stdout}${build.stderr}`;
    expect(build.status, output).toBe(0);
    expect(output).toContain('built in');
    expect(output).not.toContain('(!)');
  }, 120_000);
});
