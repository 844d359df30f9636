import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Terminal } from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test-support/waitFor';
import { terminalSizeNote } from '../../../shared/terminalSizeNote';
import { AgentTerminal } from './agentTerminal';
import { ScrollbackLog } from './scrollbackLog';
import type { TerminalSink } from './terminalStream';

function textOf(terminal: Terminal): string[] {
  const buffer = terminal.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < buffer.length; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
  while (rows.length > 0 && rows.at(-1) === '') rows.pop();
  return rows;
}

function written(terminal: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

describe('an agent terminal attached mid-stream', () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives a client the snapshot and then every chunk after it: the client ends with every line the agent wrote, once', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-agent-terminal-'));
    const terminal = new AgentTerminal({ scrollbackFile: path.join(dir, 'scrollback.log'), scrollbackLines: 1000, cols: 40, rows: 10 });
    // Everything the agent wrote, in one piece: a terminal that takes it all is the reference.
    let everything = '';
    const host = {
      write: (data: string) => {
        everything += data;
        terminal.write(data);
      },
      attach: (sink: TerminalSink) => terminal.attach(sink),
    };
    let n = 0;
    // Whole lines, a line cut where the attach comes, and lines longer than a row (wrapped).
    const more = (lines: number) => {
      for (let i = 0; i < lines; i++) host.write(++n % 7 === 0 ? `tick ${n} ${'long '.repeat(12)}\r\n` : `tick ${n}\r\n`);
    };
    more(25);
    for (let round = 0; round < 20; round++) {
      const client = new Terminal({ cols: 40, rows: 10, scrollback: 1000, allowProposedApi: true });
      const chunks: string[] = [];
      if (round % 5 === 4) host.write('half a li');
      const attaching = host.attach({ send: (data) => chunks.push(data) });
      if (round % 5 === 4) host.write('ne\r\n');
      more(round % 3);
      const attached = await attaching;
      more(3 + (round % 4));
      await new Promise((resolve) => setTimeout(resolve, 10));
      await written(client, attached.data);
      for (const chunk of chunks) await written(client, chunk);
      await terminal.text();
      const mirror = new Terminal({ cols: 40, rows: 10, scrollback: 1000, allowProposedApi: true });
      await written(mirror, everything);
      expect(textOf(client), `round ${round}`).toEqual(textOf(mirror));
      attached.detach();
      client.dispose();
      mirror.dispose();
    }
    await terminal.dispose();
  });
});

describe('an agent terminal resized while a client is attached', () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("tells the client the PTY's new size in the stream, after what was drawn at the old size and before what follows", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-agent-terminal-'));
    const terminal = new AgentTerminal({ scrollbackFile: path.join(dir, 'scrollback.log'), scrollbackLines: 100, cols: 80, rows: 24 });
    let received = '';
    const attached = await terminal.attach({ send: (data) => (received += data) });
    terminal.write('drawn wide\r\n');
    terminal.resize(40, 12);
    terminal.resize(40, 12);
    terminal.write('drawn narrow\r\n');
    terminal.flush();
    await waitFor(() => received.includes('drawn narrow'), 'the output after the resize');
    expect(received).toBe(`drawn wide\r\n${terminalSizeNote({ cols: 40, rows: 12 })}drawn narrow\r\n`);
    attached.detach();
    await terminal.dispose();
  });
});

describe('an agent terminal attached during a flood', () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives a client the snapshot and every chunk after it while the mirror is far behind and dropping what the flood pushes out', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-agent-terminal-'));
    const terminal = new AgentTerminal({ scrollbackFile: path.join(dir, 'scrollback.log'), scrollbackLines: 100, cols: 40, rows: 10 });
    const reference = new Terminal({ cols: 40, rows: 10, scrollback: 100, allowProposedApi: true });
    const write = (data: string) => {
      reference.write(data);
      terminal.write(data);
    };
    // Megabytes of output over turns of the loop, as a PTY gives them: lines, then one line wrapping on and on.
    const flood = async (megabytes: number, from: number) => {
      for (let n = from; n < from + megabytes * 7_000; n++) {
        if (n % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
        write(n % 2 === 0 ? `line ${n} ${'x'.repeat(n % 150)}\r\n` : String.fromCharCode(97 + (n % 26)).repeat(200 + (n % 61)));
      }
    };
    write('\u001b[1m$ flood\u001b[0m\r\n');
    await flood(3, 0);
    const client = new Terminal({ cols: 40, rows: 10, scrollback: 100, allowProposedApi: true });
    const chunks: string[] = [];
    const attaching = terminal.attach({ send: (data) => chunks.push(data) });
    await flood(2, 30_000);
    const attached = await attaching;
    await flood(1, 50_000);
    write('\r\n\u001b[32mdone\u001b[0m\r\n$ ');
    terminal.flush();
    await terminal.text();
    await written(client, attached.data);
    for (const chunk of chunks) await written(client, chunk);
    await written(reference, '');
    expect(textOf(client)).toEqual(textOf(reference));
    attached.detach();
    client.dispose();
    reference.dispose();
    await terminal.dispose();
  });
});

describe("an agent terminal's mirror far behind on output it cannot drop", () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives a client that attaches meanwhile the snapshot and every chunk after it, the PTY held back and let go', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-agent-terminal-'));
    const terminal = new AgentTerminal({ scrollbackFile: path.join(dir, 'scrollback.log'), scrollbackLines: 100, cols: 80, rows: 24 });
    const pty = { paused: false, heldBack: false, pause: () => (pty.paused = pty.heldBack = true), resume: () => (pty.paused = false) };
    terminal.connect(pty);
    const reference = new Terminal({ cols: 80, rows: 24, scrollback: 100, allowProposedApi: true });
    const write = (data: string) => {
      reference.write(data);
      terminal.write(data);
    };
    // A full-screen program drawing, with colours: the mirror can drop none of it, and megabytes in
    // one turn of the loop leave it far behind. Each frame redraws the top of the screen and inserts
    // its number at the top of a scroll region below, so the region lists the last frames in order:
    // one lost or given twice shows.
    const redraw = (from: number, frames: number) => {
      for (let frame = from; frame < from + frames; frame++) {
        write(`\u001b[H\u001b[3${frame % 8}m${`frame ${frame} `.repeat(80).slice(0, 880)}\u001b[0m\u001b[13;1H\u001b[L\u001b[1mframe ${frame}\u001b[0m`);
      }
    };
    write('\u001b[?1049h\u001b[13;24r');
    redraw(0, 6_000);
    const client = new Terminal({ cols: 80, rows: 24, scrollback: 100, allowProposedApi: true });
    const chunks: string[] = [];
    const attaching = terminal.attach({ send: (data) => chunks.push(data) });
    redraw(6_000, 3);
    const attached = await attaching;
    redraw(6_003, 4);
    terminal.flush();
    expect(pty.heldBack).toBe(true);
    await terminal.text();
    await written(client, attached.data);
    for (const chunk of chunks) await written(client, chunk);
    await written(reference, '');
    expect(textOf(client)).toEqual(textOf(reference));
    expect([client.buffer.active.cursorX, client.buffer.active.cursorY]).toEqual([reference.buffer.active.cursorX, reference.buffer.active.cursorY]);
    await waitFor(() => !pty.paused, 'the PTY to be let go once the mirror caught up');
    attached.detach();
    client.dispose();
    reference.dispose();
    await terminal.dispose();
  });

  it('holds the PTY back, so its backlog stays bounded, and lets it go once it has caught up', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-agent-terminal-'));
    const terminal = new AgentTerminal({ scrollbackFile: path.join(dir, 'scrollback.log'), scrollbackLines: 100, cols: 80, rows: 24 });
    const pty = { paused: false, pause: () => (pty.paused = true), resume: () => (pty.paused = false) };
    terminal.connect(pty);
    // A full-screen program redrawing: nothing of it may be dropped. Megabytes in one turn of the
    // loop, more than the mirror may be behind, as a PTY that was never paused would give them.
    terminal.write('\u001b[?1049h');
    for (let frame = 0; frame < 3_000; frame++) terminal.write(`\u001b[H\u001b[2J${`frame ${frame} `.repeat(150)}`);
    terminal.flush();
    expect(pty.paused).toBe(true);
    expect(await terminal.screen()).toContain('frame 2999');
    await waitFor(() => !pty.paused, 'the PTY to be let go once the mirror caught up');
    await terminal.dispose();
  });
});

/** What a person sees of a terminal, and what a page attaching to it gets: its text, its serialized screen (looks, cursor, modes), its size. */
async function seen(terminal: AgentTerminal) {
  const attached = await terminal.attach({ send: () => {} });
  attached.detach();
  return { text: await terminal.text(), screen: await terminal.screen(), snapshot: attached.data, cols: attached.cols, rows: attached.rows, bracketedPaste: await terminal.bracketedPaste() };
}

/**
 * What a shell and a full-screen CLI draw: a wake note typed at a prompt with bracketed paste on
 * (pasted text in reverse video, the line redrawn with cursor moves), a resize, a line long enough
 * to wrap, a dialog in the alternate screen, colours.
 */
function drawSession(terminal: AgentTerminal, round: number): void {
  terminal.write(`\u001b[?2004h$ echo round ${round}\r\nround ${round}\r\n$ `);
  terminal.write(`\u001b[7m(echo ok; true) '[Drover] New message ${round}'\u001b[27m`);
  terminal.write(`\r\u001b[K$ (echo ok; true) '[Drover] New message ${round}'\u001b[12D\u001b[1mmsg\u001b[0m\u001b[12C\r\n`);
  terminal.resize(round % 2 === 0 ? 44 : 70, round % 2 === 0 ? 9 : 14);
  terminal.write(`${'a long line that wraps at the narrower width '.repeat(3)}\r\n`);
  terminal.write(`\u001b[?1049h\u001b[H\u001b[2J\u001b[3;5H\u001b[44m Do you want to proceed? \u001b[0m\u001b[5;5H❯ 1. Yes\u001b[6;5H  2. No\u001b[6;12H`);
  if (round < 2) terminal.write('\u001b[?1049l\u001b[32mback in the normal screen\u001b[0m\r\n');
}

describe('an agent terminal rebuilt from its scrollback file (a restart of the host)', () => {
  let dir = '';
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const rebuilt = (file: string) => new AgentTerminal({ scrollbackFile: file, scrollbackLines: 1000, cols: 120, rows: 32 });

  it('is the terminal it was: the same text, looks, cursor, modes and size, across resizes and the alternate screen', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-agent-terminal-'));
    const file = path.join(dir, 'scrollback.log');
    const before = new AgentTerminal({ scrollbackFile: file, scrollbackLines: 1000, cols: 80, rows: 24 });
    for (let round = 0; round < 3; round++) drawSession(before, round);
    const shown = await seen(before);
    expect(shown.bracketedPaste).toBe(true);
    await before.dispose();
    const after = rebuilt(file);
    expect(await seen(after)).toEqual(shown);
    await after.dispose();
  });

  it('is the terminal it was when it was closed in the middle of a flood its file did not take', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-agent-terminal-'));
    const file = path.join(dir, 'scrollback.log');
    const before = new AgentTerminal({ scrollbackFile: file, scrollbackLines: 1000, cols: 80, rows: 24 });
    drawSession(before, 0);
    // 3 MB at once: more than the file takes of a moment.
    for (let block = 0; block < 40; block++) before.write(`\u001b[3${block % 8}m${`flood line of block ${block} `.padEnd(78, '.')}\r\n`.repeat(1000));
    before.write('\u001b[0mthe flood ended\r\n$ ');
    const shown = await seen(before);
    await before.dispose();
    const after = rebuilt(file);
    expect(await seen(after)).toEqual(shown);
    expect(shown.text).toContain('flood line of block 39');
    await after.dispose();
  });

  it('is the terminal it was when its file was rewritten from a screen on the way', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-agent-terminal-'));
    const file = path.join(dir, 'scrollback.log');
    const before = new AgentTerminal({ scrollbackFile: file, scrollbackLines: 1000, cols: 80, rows: 24, rewriteAfterBytes: 2000 });
    drawSession(before, 0);
    for (let line = 0; line < 100; line++) before.write(`\u001b[3${line % 8}mline ${line}\u001b[0m of history\r\n`);
    before.flush();
    // A quiet moment after that much output: the file starts again from the mirror, serialized.
    await waitFor(() => {
      const { log, restored } = ScrollbackLog.open(file, () => {});
      log.close();
      return restored.records[0]?.kind === 'screen';
    }, 'the file rewritten from a screen');
    drawSession(before, 1);
    drawSession(before, 2);
    const shown = await seen(before);
    await before.dispose();
    const after = rebuilt(file);
    expect(await seen(after)).toEqual(shown);
    await after.dispose();
  });
});
