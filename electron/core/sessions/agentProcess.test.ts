import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { AgentProcess } from './agentProcess';
import { AgentTerminal } from './agentTerminal';

describe('stopping an agent process', () => {
  let dir = '';
  let terminal: AgentTerminal | undefined;
  afterEach(async () => {
    await terminal?.dispose();
    removeDir(dir);
  });

  it('resolves only once every process of its group ended, not when a launcher in front of the CLI exits first', async () => {
    dir = makeTempDir('drover-agent-process-');
    const started = path.join(dir, 'started');
    const saved = path.join(dir, 'saved');
    terminal = new AgentTerminal({ scrollbackFile: path.join(dir, 'scrollback.log'), scrollbackLines: 100, cols: 80, rows: 24 });
    // A launcher (the shell, ending at SIGTERM) in front of the program it runs, which saves its
    // state after SIGTERM (and outlives the SIGHUP the terminal's end sends, as Copilot CLI's binary does).
    const program = `process.on('SIGHUP', () => {}); process.on('SIGTERM', () => setTimeout(() => { require('fs').writeFileSync(${JSON.stringify(saved)}, ''); process.exit(0); }, 500)); require('fs').writeFileSync(${JSON.stringify(started)}, ''); setInterval(() => {}, 1000);`;
    const agent = new AgentProcess({
      file: '/bin/sh',
      args: ['-c', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(program)} & wait`],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      quietMs: 100,
      terminal,
      onQuiet: () => {},
      onExit: () => {},
      onProgramState: () => {},
    });
    await waitFor(() => fs.existsSync(started), 'the program started');
    await agent.stop('test', 10_000);
    expect(fs.existsSync(saved)).toBe(true);
  });
});

describe('writing to an agent process', () => {
  let dir = '';
  let terminal: AgentTerminal | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await terminal?.dispose();
    removeDir(dir);
  });

  it('takes a write after its PTY is gone without an error, handled or printed', async () => {
    dir = makeTempDir('drover-agent-process-');
    terminal = new AgentTerminal({ scrollbackFile: path.join(dir, 'scrollback.log'), scrollbackLines: 100, cols: 80, rows: 24 });
    const printed = vi.spyOn(console, 'error');
    let exited = false;
    const agent = new AgentProcess({
      file: '/bin/sh',
      args: ['-c', 'exit 0'],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      quietMs: 100,
      terminal,
      onQuiet: () => {},
      onExit: () => (exited = true),
      onProgramState: () => {},
    });
    await waitFor(() => exited, 'the agent exited');
    agent.write('a wake note typed too late\r');
    agent.write('x'.repeat(100_000));
    // node-pty reports a failed write on a later turn of the loop, after its write to the descriptor returns.
    await new Promise((resolve) => fs.write(1, '', resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(printed).not.toHaveBeenCalled();
  });
});

describe('quiet output', () => {
  let dir = '';
  let terminal: AgentTerminal | undefined;
  let agent: AgentProcess | undefined;
  afterEach(async () => {
    await agent?.stop('test', 1_000);
    await terminal?.dispose();
    removeDir(dir);
  });

  it('says the output went quiet only once none came for quietMs, however long it kept coming before', async () => {
    dir = makeTempDir('drover-agent-process-');
    terminal = new AgentTerminal({ scrollbackFile: path.join(dir, 'scrollback.log'), scrollbackLines: 100, cols: 80, rows: 24 });
    // Output every 30 ms for 600 ms, four times the quiet period, then none.
    const program = `let n = 0; const t = setInterval(() => { process.stdout.write('tick ' + n + '\\n'); if (++n === 20) { clearInterval(t); process.stdout.write('done\\n'); setInterval(() => {}, 1000); } }, 30);`;
    const screensWhenQuiet: Promise<string>[] = [];
    const owner = terminal;
    agent = new AgentProcess({
      file: process.execPath,
      args: ['-e', program],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      quietMs: 150,
      terminal,
      onQuiet: () => screensWhenQuiet.push(owner.screen()),
      onExit: () => {},
      onProgramState: () => {},
    });
    await waitFor(() => screensWhenQuiet.length > 0, 'the output went quiet');
    expect(await screensWhenQuiet[0]).toContain('done');
  });
});
