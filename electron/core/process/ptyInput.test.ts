import * as pty from 'node-pty';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '../../../test-support/waitFor';
import { PtyInput } from './ptyInput';

describe('input for a PTY whose program exits before reading it', () => {
  let terminal: pty.IPty | undefined;
  afterEach(() => {
    vi.restoreAllMocks();
    terminal?.kill('SIGKILL');
  });

  it('is dropped and said to the owner once the PTY is gone (EBADF or EIO), never printed as an unhandled write error', async () => {
    const printed = vi.spyOn(console, 'error');
    // A program that takes no input and exits soon: a paste larger than the PTY's buffer is still queued then.
    terminal = pty.spawn('/bin/sh', ['-c', 'stty raw -echo; echo ready; sleep 0.3'], { cols: 80, rows: 24 });
    let ready = false;
    let exited = false;
    terminal.onData((data) => (ready ||= data.includes('ready')));
    terminal.onExit(() => (exited = true));
    const drops: { bytes: number; code: string | undefined }[] = [];
    const input = new PtyInput(terminal, (bytes, error: NodeJS.ErrnoException) => drops.push({ bytes, code: error.code }));
    await waitFor(() => ready, 'the program to be ready');
    input.write('x'.repeat(500_000));
    await waitFor(() => drops.length > 0, 'the queued input to be dropped once the PTY is gone');
    await waitFor(() => exited, 'the program to exit');
    input.write('after the exit');
    expect(drops).toHaveLength(1);
    expect(drops[0]?.bytes).toBeGreaterThan(0);
    expect(['EBADF', 'EIO']).toContain(drops[0]?.code);
    expect(printed).not.toHaveBeenCalled();
  });
});

describe('input for a live PTY', () => {
  let terminal: pty.IPty | undefined;
  afterEach(() => terminal?.kill('SIGKILL'));

  it('arrives whole and in order: input the kernel takes at once, a paste larger than its buffer, and what follows it', async () => {
    // The program reads exactly the 600,012 bytes written and prints their last 12: lost bytes hang it, reordered ones change them.
    terminal = pty.spawn('/bin/sh', ['-c', 'stty raw -echo; echo ready; head -c 600012 | tail -c 12; echo; echo done'], { cols: 80, rows: 24 });
    let output = '';
    terminal.onData((data) => (output += data));
    const input = new PtyInput(terminal);
    await waitFor(() => output.includes('ready'), 'the program to be ready');
    input.write('x');
    input.write('y'.repeat(599_999));
    input.write('after-paste!');
    await waitFor(() => output.includes('done'), 'the program to read all the input');
    expect(output).toContain('after-paste!');
  });
});
