import fs from 'node:fs';
import path from 'node:path';
import { Terminal } from '@xterm/headless';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bridge } from '../../../renderer/bridge';
import { AgentTerminalLink, xtermScreen, type TerminalScreen, type TerminalSize } from '../../../renderer/terminal/agentTerminalLink';
import { createFrameBridge, type Carrier } from '../../../renderer/transport/frameTransport';
import { CLI_PATH } from '../../../test-support/buildOnce';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { FLOW_CONTROL } from '../../core/sessions/terminalStream';
import { PageLines } from '../../desktop/pageLines';
import { startHost, type DroverHost } from '../host';

/** The page's own client on a line through the desktop's page lines to the host's local socket, as a window's page has it. */
async function socketBridge(socketPath: string): Promise<{ bridge: Bridge; close(): void }> {
  const carrier: Carrier = ({ opened, received, closed }) => {
    const lines = new PageLines(socketPath, (_id, event) => (event.t === 'open' ? opened() : event.t === 'frame' ? received(event.frame) : closed(null)));
    lines.open(1, null);
    return { send: (frame) => lines.send(1, frame), close: () => lines.closeAll() };
  };
  const bridge = createFrameBridge(carrier);
  await waitFor(() => bridge.connectionState() === 'open', 'the line to the host');
  return { bridge, close: () => bridge.close() };
}

/** A page's screen (the page's own, over a headless xterm) whose page can be paused (a hung tab, one stopped in the debugger): then it parses nothing. */
class PausableScreen implements TerminalScreen {
  readonly terminal = new Terminal({ cols: 80, rows: 24, scrollback: 10_000, allowProposedApi: true });
  private readonly screen = xtermScreen(this.terminal, () => null);
  private paused = false;
  private readonly held: (() => void)[] = [];

  size(): TerminalSize | null {
    return this.screen.size();
  }

  restore(snapshot: string, size: TerminalSize, onRestored: () => void): void {
    this.run(() => this.screen.restore(snapshot, size, onRestored));
  }

  write(data: Uint8Array, onParsed?: () => void): void {
    this.run(() => this.screen.write(data, onParsed));
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.held.splice(0).forEach((step) => step());
  }

  /** Its lines as the host's mirror reads them out: a wrapped row joined to the one it continues. */
  text(): Promise<string> {
    return new Promise((resolve) =>
      this.terminal.write('', () => {
        const buffer = this.terminal.buffer.active;
        const lines: string[] = [];
        for (let row = 0; row < buffer.length; row++) {
          const line = buffer.getLine(row);
          const text = line?.translateToString(true) ?? '';
          if (line?.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
          else lines.push(text);
        }
        resolve(lines.join('\n'));
      }),
    );
  }

  private run(step: () => void): void {
    if (this.paused) this.held.push(step);
    else step();
  }
}

const trimmedLines = (text: string) => text.split('\n').map((line) => line.trimEnd()).join('\n').trimEnd();

describe('a viewer that stops acknowledging an agent terminal', () => {
  let dir: string;
  let host: DroverHost;
  const closers: (() => void)[] = [];

  beforeEach(() => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'repo'));
  });
  afterEach(async () => {
    closers.splice(0).forEach((close) => close());
    await host.close();
    removeDir(dir);
  });

  it('holds nobody back: the agent floods on, and the viewer, back, shows the screen the host has', async () => {
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', cliCommand: [process.execPath, CLI_PATH], agentStopGraceMs: 500 });
    const { api } = host.core;
    const project = await api.addProject({ path: path.join(dir, 'repo') });
    await api.saveAgentProfile({
      profile: { id: 'sh', name: 'sh', command: '/bin/sh', args: [], env: { PS1: 'sh$ ' }, promptPattern: 'sh\\$ ?$', busyPattern: null, needsInputPattern: null, usageLimitPattern: null, quietMs: 200, integration: 'none', wakeAs: 'shell-note' },
    });
    const agent = await api.createAgent({ projectId: project.id, name: 'Flooder', role: '', profileId: 'sh' });
    await api.startAgent({ agentId: agent.id, resume: false });
    const session = async () => (await api.getWorkState({ projectId: project.id })).sessions.find((s) => s.agentId === agent.id);
    await waitFor(async () => (await session())?.state === 'ready', 'the shell prompt');

    // A page attaches, then stops: from now on it parses nothing and acknowledges nothing.
    const connection = await socketBridge(host.socketPath);
    closers.push(connection.close);
    const screen = new PausableScreen();
    const link = new AgentTerminalLink(connection.bridge, agent.id, screen, () => undefined);
    closers.push(() => link.stop());
    link.start();
    await waitFor(async () => (await screen.text()).includes('sh$'), 'the page showing the prompt');
    screen.pause();

    // Rows of 10 characters or more ('row 10000\r\n' on), three times the pause mark: the agent gets
    // through them only if the stalled page stops holding it back.
    const rows = Math.ceil((3 * FLOW_CONTROL.highWatermark) / 10);
    fs.writeFileSync(path.join(dir, 'repo', 'flood.js'), `for (let i = 1; i <= ${rows}; i++) console.log('row ' + i); console.log('flood ' + 'done');\n`);
    await api.writeAgentInput({ agentId: agent.id, data: `'${process.execPath}' flood.js\r` });
    const mirrorText = async () => (await api.readAgentScreen({ agentId: agent.id })).text;
    await waitFor(async () => /^flood done$/m.test(await mirrorText()), 'the flood to finish while the page is stalled', 30_000);
    await api.writeAgentInput({ agentId: agent.id, data: 'echo after-$((40+2))\r' });
    await waitFor(async () => (await mirrorText()).includes('after-42\n'), 'the next command');

    // The page comes back: it catches up on what it had, is told it missed the rest, and attaches again.
    screen.resume();
    await waitFor(async () => trimmedLines(await screen.text()) === trimmedLines(await mirrorText()), 'the page to show what the host mirror holds', 20_000);
    const text = await screen.text();
    expect(text).toMatch(new RegExp(`^row ${rows}$`, 'm'));
    expect(text.match(/^flood done$/gm)).toHaveLength(1);
  }, 60_000);
});
