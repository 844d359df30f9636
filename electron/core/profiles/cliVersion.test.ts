import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { isNewerVersion, parseCliVersion, readCliVersion, TESTED_CLIS } from './cliVersion';

describe("reading an agent CLI's version", () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir('drover-cli-version-');
  });
  afterEach(() => removeDir(dir));

  /** An executable named `name` that prints `printed` when asked its version. */
  const cli = (name: string, printed: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!/bin/sh\n[ "$1" = "--version" ] && printf '%s\\n' '${printed}'\n`, { mode: 0o755 });
    return file;
  };

  it('reads the version each CLI prints, in its own words', () => {
    expect(parseCliVersion('2.1.332 (Claude Code)')).toBe('2.1.332');
    expect(parseCliVersion('codex-cli 0.171.0')).toBe('0.171.0');
    expect(parseCliVersion('0.61.0')).toBe('0.61.0');
    expect(parseCliVersion('no version here')).toBeNull();
  });

  it('compares versions part by part, as numbers', () => {
    expect(isNewerVersion('2.1.1000', '2.1.332')).toBe(true);
    expect(isNewerVersion('2.2.0', '2.1.332')).toBe(true);
    expect(isNewerVersion('2.1.332', '2.1.332')).toBe(false);
    expect(isNewerVersion('2.1.99', '2.1.332')).toBe(false);
    expect(isNewerVersion('1.9.999', '2.0.0')).toBe(false);
  });

  it('says when a CLI is newer than the newest tested, and only then', async () => {
    const newer = cli('claude', '9.9.9 (Claude Code)');
    expect(await readCliVersion('claude', newer, process.env)).toEqual({ version: '9.9.9', newerThanTested: TESTED_CLIS.claude?.newestTested });
    const tested = cli('codex', `codex-cli ${TESTED_CLIS.codex?.newestTested}`);
    expect(await readCliVersion('codex', tested, process.env)).toEqual({ version: TESTED_CLIS.codex?.newestTested, newerThanTested: null });
  });

  it('asks only the tested CLIs, and gives up quietly on one that prints no version', async () => {
    const other = cli('aider', '9.9.9');
    expect(await readCliVersion('aider', other, process.env)).toBeNull();
    const silent = cli('codex', '');
    expect(await readCliVersion('codex', silent, process.env)).toBeNull();
    expect(await readCliVersion('claude', path.join(dir, 'missing'), process.env)).toBeNull();
  });

  it("reads an npm-installed CLI's version from its package.json, and never runs Gemini CLI to ask", async () => {
    // As npm lays it out: node_modules/.bin/gemini -> ../@google/gemini-cli/bundle/gemini.js
    const pkg = path.join(dir, 'node_modules', '@google', 'gemini-cli');
    fs.mkdirSync(path.join(pkg, 'bundle'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: '@google/gemini-cli', version: '9.9.9' }));
    const ran = path.join(dir, 'ran');
    fs.writeFileSync(path.join(pkg, 'bundle', 'gemini.js'), `#!/bin/sh\ntouch '${ran}'\necho 1.0.0\n`, { mode: 0o755 });
    fs.mkdirSync(path.join(dir, 'node_modules', '.bin'));
    fs.symlinkSync('../@google/gemini-cli/bundle/gemini.js', path.join(dir, 'node_modules', '.bin', 'gemini'));
    expect(await readCliVersion('gemini', path.join(dir, 'node_modules', '.bin', 'gemini'), process.env)).toEqual({ version: '9.9.9', newerThanTested: TESTED_CLIS.gemini?.newestTested });
    expect(fs.existsSync(ran)).toBe(false);
    // Without a package.json, Gemini CLI is not asked (its --version writes its projects registry).
    expect(await readCliVersion('gemini', cli('gemini', '9.9.9'), process.env)).toBeNull();
  });
});
