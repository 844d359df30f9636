import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { isNewerVersion, NEWEST_TESTED_CLI_VERSIONS, parseCliVersion, readCliVersion } from './cliVersion';

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
    expect(await readCliVersion('claude', newer, process.env)).toEqual({ version: '9.9.9', newerThanTested: NEWEST_TESTED_CLI_VERSIONS.claude });
    const tested = cli('codex', `codex-cli ${NEWEST_TESTED_CLI_VERSIONS.codex}`);
    expect(await readCliVersion('codex', tested, process.env)).toEqual({ version: NEWEST_TESTED_CLI_VERSIONS.codex, newerThanTested: null });
  });

  it('asks only the tested CLIs, and gives up quietly on one that prints no version', async () => {
    const other = cli('aider', '9.9.9');
    expect(await readCliVersion('aider', other, process.env)).toBeNull();
    const silent = cli('gemini', '');
    expect(await readCliVersion('gemini', silent, process.env)).toBeNull();
    expect(await readCliVersion('claude', path.join(dir, 'missing'), process.env)).toBeNull();
  });
});
