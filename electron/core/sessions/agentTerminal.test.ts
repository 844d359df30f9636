import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Terminal } from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentTerminal } from './agentTerminal';

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
    const host = new AgentTerminal({ scrollbackFile: path.join(dir, 'scrollback.log'), scrollbackLines: 1000, cols: 40, rows: 10 });
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
      host.flush();
      await host.text();
      const mirror = new Terminal({ cols: 40, rows: 10, scrollback: 1000, allowProposedApi: true });
      await written(mirror, fs.readFileSync(path.join(dir, 'scrollback.log'), 'utf8'));
      expect(textOf(client), `round ${round}`).toEqual(textOf(mirror));
      attached.detach();
      client.dispose();
      mirror.dispose();
    }
    host.dispose();
  });
});
