import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeCommandLineTool } from '../../../shared/commandLineTool';
import { DroverRequestError } from '../../../shared/protocol';
import { REPO_ROOT } from '../../../test-support/buildOnce';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { installCommandLineTool, refreshCommandLineTool, type CommandLineToolSource } from './commandLineTool';

const BUNDLED_CLI = path.join(REPO_ROOT, 'dist', 'electron', 'cli.js');
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function run(file: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 20_000 }, (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }));
  });
}

describe('Install command line tool', () => {
  let dir: string;
  let home: string;
  let launcher: string;
  let dataDir: string;
  /** Runs this checkout's bundled CLI with Node, as `drover serve` offers it. */
  const source: CommandLineToolSource = { kind: 'launcher', command: [process.execPath, BUNDLED_CLI], env: { DROVER_LAUNCHED_BY: 'launcher test' } };

  beforeEach(() => {
    dir = makeTempDir('drover-cli-tool-');
    home = path.join(dir, 'home');
    fs.mkdirSync(home);
    launcher = path.join(home, '.local', 'bin', 'drover');
    dataDir = path.join(dir, "it's {data}");
  });
  afterEach(() => removeDir(dir));

  function executableIn(folder: string): string {
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'drover');
    fs.writeFileSync(file, '#!/bin/sh\necho other drover\n', { mode: 0o755 });
    return file;
  }

  it('writes an executable drover into ~/.local/bin that runs the CLI with the given runtime and env', async () => {
    const result = installCommandLineTool(source, { HOME: home, PATH: `${path.join(home, '.local', 'bin')}:/usr/bin:/bin` }, dataDir);
    expect(result).toEqual({ path: launcher, source: 'written', onPath: true, shadowedBy: null, home });
    expect(fs.statSync(launcher).mode & 0o777).toBe(0o755);
    expect(fs.readFileSync(launcher, 'utf8')).toContain(`DROVER_LAUNCHED_BY='launcher test' exec '${process.execPath}' '${BUNDLED_CLI}' "$@"`);
    expect(await run(launcher, ['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n` });
    expect(fs.readdirSync(path.dirname(launcher))).toEqual(['drover']);
  });

  it('says when ~/.local/bin is not on PATH, and which other drover a shell would run instead', () => {
    const other = executableIn(path.join(dir, 'usr-local-bin'));
    const notOnPath = installCommandLineTool(source, { HOME: home, PATH: `${path.dirname(other)}:/usr/bin` }, dataDir);
    expect(notOnPath).toMatchObject({ onPath: false, shadowedBy: other });
    expect(describeCommandLineTool(notOnPath)).toEqual([
      'Installed the drover command at ~/.local/bin/drover.',
      '~/.local/bin is not on your PATH: add it (for example, put export PATH="$HOME/.local/bin:$PATH" in ~/.profile), then open a new terminal.',
      `Another drover comes first on your PATH: ${other}. Remove it, or put ~/.local/bin before it.`,
    ]);

    const behind = installCommandLineTool(source, { HOME: home, PATH: `${path.join(home, '.local', 'bin')}:${path.dirname(other)}` }, dataDir);
    expect(behind).toMatchObject({ onPath: true, shadowedBy: null });
    expect(describeCommandLineTool(behind)).toEqual(['Installed the drover command at ~/.local/bin/drover.']);
  });

  it('rewrites its own launcher, and never a drover it did not write', () => {
    const env = { HOME: home, PATH: '/usr/bin' };
    installCommandLineTool(source, env, dataDir);
    installCommandLineTool({ ...source, env: {} }, env, dataDir);
    expect(fs.readFileSync(launcher, 'utf8')).not.toContain('DROVER_LAUNCHED_BY');

    fs.writeFileSync(launcher, '#!/bin/sh\necho mine\n');
    const refused = (() => {
      try {
        installCommandLineTool(source, env, dataDir);
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refused).toBeInstanceOf(DroverRequestError);
    expect(refused).toMatchObject({ code: 'conflict', message: expect.stringContaining('~/.local/bin/drover already exists and was not written by Drover') });
    expect(fs.readFileSync(launcher, 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });

  it('treats a symlink at ~/.local/bin/drover as someone else’s', () => {
    const target = executableIn(path.join(dir, 'elsewhere'));
    fs.mkdirSync(path.dirname(launcher), { recursive: true });
    fs.symlinkSync(target, launcher);
    expect(() => installCommandLineTool(source, { HOME: home }, dataDir)).toThrow(/not written by Drover/);
    expect(fs.readlinkSync(launcher)).toBe(target);
  });

  it('reports a folder it cannot write to with the reason', () => {
    fs.writeFileSync(path.join(home, '.local'), 'a file where a folder should be');
    expect(() => installCommandLineTool(source, { HOME: home }, dataDir)).toThrow(/^Could not write ~\/\.local\/bin\/drover: /);
  });

  it('refreshes only a launcher it wrote (an AppImage that moved), and only when it changed', () => {
    const env = { HOME: home };
    expect(refreshCommandLineTool(source, env)).toBe(false);
    expect(fs.existsSync(launcher)).toBe(false);

    installCommandLineTool(source, env, dataDir);
    expect(refreshCommandLineTool(source, env)).toBe(false);
    const moved: CommandLineToolSource = { kind: 'launcher', command: ['/home/ada/Apps/Drover-2.0.0-x86_64.AppImage', '-e', 'require(1)'] };
    expect(refreshCommandLineTool(moved, env)).toBe(true);
    expect(fs.readFileSync(launcher, 'utf8')).toContain("'/home/ada/Apps/Drover-2.0.0-x86_64.AppImage'");

    fs.writeFileSync(launcher, '#!/bin/sh\necho mine\n');
    expect(refreshCommandLineTool(source, env)).toBe(false);
    expect(fs.readFileSync(launcher, 'utf8')).toBe('#!/bin/sh\necho mine\n');
  });

  it('writes nothing where the system package provides drover, and says so', () => {
    const packaged = executableIn(path.join(dir, 'usr', 'bin'));
    const result = installCommandLineTool({ kind: 'package', path: packaged }, { HOME: home, PATH: path.dirname(packaged) }, dataDir);
    expect(result).toEqual({ path: packaged, source: 'package', onPath: true, shadowedBy: null, home });
    expect(fs.existsSync(launcher)).toBe(false);
    expect(describeCommandLineTool(result)).toEqual([`The Drover package installed the drover command at ${packaged}.`]);
  });
});
