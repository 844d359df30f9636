import { Terminal } from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { Bridge } from '../bridge';
import { BaseFakeBridge, settle } from '../testing/fakeBridge';
import { AgentTerminalLink, xtermScreen, type TerminalScreen, type TerminalSize } from './agentTerminalLink';

const AGENT = 'a-aaaaaa';
const encoder = new TextEncoder();

/**
 * A host holding one agent's terminal as a stream with offsets: the attach answer is everything so
 * far and where it ends; `output` pushes a chunk saying where it starts.
 */
class FakeTerminalHost extends BaseFakeBridge {
  stream = '';
  readonly calls: { method: MethodName; params: unknown }[] = [];

  async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    this.calls.push({ method, params });
    const answer = method === 'attachAgentTerminal' ? { agentId: AGENT, snapshot: this.stream, at: encoder.encode(this.stream).length, cols: 100, rows: 30 } : { agentId: AGENT };
    await settle();
    return answer as MethodResult<M>;
  }

  output(data: string, agentId = AGENT): void {
    const at = encoder.encode(this.stream).length;
    if (agentId === AGENT) this.stream += data;
    this.pushTerminal({ agentId, projectId: 'p-aaaaaa', at, data: encoder.encode(data) });
  }
  acked(): number[] {
    return this.calls.filter((c) => c.method === 'ackAgentOutput').map((c) => (c.params as { bytes: number }).bytes);
  }
}

/** A screen that parses each write on a later tick, like xterm, unless told to hold them. */
class FakeScreen implements TerminalScreen {
  text = '';
  restoredAt: TerminalSize | null = null;
  hold = false;
  private readonly decoder = new TextDecoder();
  private readonly parsing: (() => void)[] = [];
  size(): TerminalSize {
    return { cols: 80, rows: 24 };
  }
  restore(snapshot: string, size: TerminalSize, onRestored: () => void): void {
    this.text = snapshot;
    this.restoredAt = size;
    this.parsing.push(onRestored);
    if (!this.hold) this.parseAll();
  }
  write(data: Uint8Array, onParsed?: () => void): void {
    this.text += this.decoder.decode(data, { stream: true });
    if (onParsed) this.parsing.push(onParsed);
    if (!this.hold) this.parseAll();
  }
  parseAll(): void {
    this.parsing.splice(0).forEach((done) => done());
  }
}

function link(host: FakeTerminalHost, screen = new FakeScreen()) {
  const errors: (string | null)[] = [];
  const terminalLink = new AgentTerminalLink(host, AGENT, screen, (error) => errors.push(error));
  terminalLink.start();
  return { terminalLink, screen, errors };
}

describe('AgentTerminalLink', () => {
  it('attaches with its size, shows the snapshot at the size it was taken, then live chunks of its own agent only', async () => {
    const host = new FakeTerminalHost();
    host.stream = 'banner\r\nfake> ';
    const { screen, terminalLink } = link(host);
    await settle();
    expect(host.calls[0]).toEqual({ method: 'attachAgentTerminal', params: { agentId: AGENT, cols: 80, rows: 24 } });
    expect(screen.restoredAt).toEqual({ cols: 100, rows: 30 });
    host.output('hello');
    host.output('other agent', 'a-bbbbbb');
    expect(screen.text).toBe('banner\r\nfake> hello');
    terminalLink.stop();
    expect(host.calls.at(-1)?.method).toBe('detachAgentTerminal');
  });

  it('takes chunks that arrive before the attach answer from where the snapshot ends: none lost, none twice', async () => {
    const host = new FakeTerminalHost();
    host.stream = 'screen';
    const { screen } = link(host);
    // Sent to an earlier attachment before this one began: in the snapshot already.
    host.pushTerminal({ agentId: AGENT, projectId: 'p-aaaaaa', at: 0, data: encoder.encode('scr') });
    // The snapshot is taken now (the fake answers with the stream as it is when called) ...
    await Promise.resolve();
    // ... and these come after it, before its answer.
    host.output(' one');
    host.output(' two');
    await settle();
    expect(screen.text).toBe('screen one two');
  });

  it('acknowledges in 5,000-byte steps, only what the screen has parsed', async () => {
    const host = new FakeTerminalHost();
    const { screen } = link(host);
    await settle();
    screen.hold = true;
    for (let i = 0; i < 12; i++) host.output('y\n'.repeat(500));
    expect(host.acked()).toEqual([]);
    screen.parseAll();
    expect(host.acked()).toEqual([5_000, 5_000]);
  });

  it('acknowledges bytes, not characters', async () => {
    const host = new FakeTerminalHost();
    link(host);
    await settle();
    host.output('é'.repeat(2_500));
    expect(host.acked()).toEqual([5_000]);
  });

  it('says it is restoring until the snapshot is parsed, so what the screen answers then is not typed into the agent', async () => {
    const host = new FakeTerminalHost();
    host.stream = '\u001b[6n';
    const screen = new FakeScreen();
    screen.hold = true;
    const { terminalLink } = link(host, screen);
    await settle();
    expect(terminalLink.restoring).toBe(true);
    screen.parseAll();
    expect(terminalLink.restoring).toBe(false);
  });

  it('attaches again after a reconnect and restores the screen from a fresh snapshot', async () => {
    const host = new FakeTerminalHost();
    const { screen } = link(host);
    await settle();
    host.output('before');
    host.setConnection('lost');
    host.stream += ' while away';
    host.setConnection('open');
    await settle();
    expect(screen.text).toBe('before while away');
    expect(host.calls.filter((c) => c.method === 'attachAgentTerminal')).toHaveLength(2);
  });

  it('attaches again from a fresh snapshot when a chunk starts past the end of what it has: the host left it behind', async () => {
    const host = new FakeTerminalHost();
    const { screen } = link(host);
    await settle();
    host.output('seen');
    // Output the page missed while it acknowledged nothing, then the host's word of where the stream is.
    host.stream += ' missed';
    host.pushTerminal({ agentId: AGENT, projectId: 'p-aaaaaa', at: encoder.encode(host.stream).length, data: new Uint8Array() });
    await settle();
    expect(host.calls.filter((c) => c.method === 'attachAgentTerminal')).toHaveLength(2);
    host.output(' after');
    expect(screen.text).toBe('seen missed after');
  });

  it('reports an attach that fails', async () => {
    const host = new FakeTerminalHost();
    host.call = (async () => {
      throw new Error('No agent a-aaaaaa');
    }) as Bridge['call'];
    const { errors } = link(host);
    await settle();
    expect(errors).toEqual(['No agent a-aaaaaa']);
  });
});

describe('xtermScreen', () => {
  it('restores after what was written before it is parsed: output the page fell behind on never lands in the restored screen', async () => {
    const terminal = new Terminal({ cols: 20, rows: 4, scrollback: 100, allowProposedApi: true });
    const screen = xtermScreen(terminal, () => null);
    screen.write(encoder.encode('stale 1\r\nstale 2\r\n'));
    const restored = new Promise<void>((resolve) => screen.restore('fresh\r\n', { cols: 30, rows: 5 }, resolve));
    screen.write(encoder.encode('after'));
    await restored;
    await new Promise<void>((resolve) => terminal.write('', resolve));
    const rows = Array.from({ length: terminal.buffer.active.length }, (_, row) => terminal.buffer.active.getLine(row)?.translateToString(true) ?? '');
    expect(rows).toEqual(['fresh', 'after', '', '', '']);
    expect([terminal.cols, terminal.rows]).toEqual([30, 5]);
    terminal.dispose();
  });
});
