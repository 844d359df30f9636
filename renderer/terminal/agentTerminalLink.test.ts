import { describe, expect, it } from 'vitest';
import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { Bridge } from '../bridge';
import { BaseFakeBridge, settle } from '../testing/fakeBridge';
import { AgentTerminalLink, type TerminalScreen } from './agentTerminalLink';

const AGENT = 'a-aaaaaa';
const encoder = new TextEncoder();

/** A host holding one agent's scrollback; it records the calls and pushes chunks on demand. */
class FakeTerminalHost extends BaseFakeBridge {
  scrollback = '';
  readonly calls: { method: MethodName; params: unknown }[] = [];

  async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    this.calls.push({ method, params });
    await settle();
    const result = method === 'attachAgentTerminal' ? { agentId: AGENT, scrollback: this.scrollback } : { agentId: AGENT };
    return result as MethodResult<M>;
  }

  output(data: string, agentId = AGENT): void {
    this.scrollback += data;
    this.pushTerminal({ agentId, projectId: 'p-aaaaaa', data: encoder.encode(data) });
  }
  acked(): number[] {
    return this.calls.filter((c) => c.method === 'ackAgentOutput').map((c) => (c.params as { bytes: number }).bytes);
  }
}

/** A screen that parses each write on a later tick, like xterm, unless told to hold them. */
class FakeScreen implements TerminalScreen {
  text = '';
  private readonly decoder = new TextDecoder();
  hold = false;
  private readonly parsing: (() => void)[] = [];
  clear(): void {
    this.text = '';
  }
  write(data: string | Uint8Array, onParsed?: () => void): void {
    this.text += typeof data === 'string' ? data : this.decoder.decode(data, { stream: true });
    if (onParsed) this.parsing.push(onParsed);
    if (!this.hold) this.parseAll();
  }
  parseAll(): void {
    this.parsing.splice(0).forEach((done) => done());
  }
}

function link(host: FakeTerminalHost) {
  const screen = new FakeScreen();
  const errors: (string | null)[] = [];
  const terminalLink = new AgentTerminalLink(host, AGENT, screen, (error) => errors.push(error));
  terminalLink.start();
  return { terminalLink, screen, errors };
}

describe('AgentTerminalLink', () => {
  it('shows the scrollback, then live chunks of its own agent only', async () => {
    const host = new FakeTerminalHost();
    host.scrollback = 'banner\r\nfake> ';
    const { screen, terminalLink } = link(host);
    await settle();
    host.output('hello');
    host.output('other agent', 'a-bbbbbb');
    expect(screen.text).toBe('banner\r\nfake> hello');
    terminalLink.stop();
    expect(host.calls.at(-1)?.method).toBe('detachAgentTerminal');
  });

  it('acknowledges in 5,000-character steps, only what the screen has parsed', async () => {
    const host = new FakeTerminalHost();
    const { screen } = link(host);
    await settle();
    screen.hold = true;
    for (let i = 0; i < 12; i++) host.output('y\n'.repeat(500));
    expect(host.acked()).toEqual([]);
    screen.parseAll();
    expect(host.acked()).toEqual([5_000, 5_000]);
  });

  it('writes live chunks to the screen as bytes and acknowledges bytes, not characters', async () => {
    const host = new FakeTerminalHost();
    const writes: (string | Uint8Array)[] = [];
    const screen: TerminalScreen = { clear: () => undefined, write: (data, onParsed) => (writes.push(data), onParsed?.()) };
    new AgentTerminalLink(host, AGENT, screen, () => undefined).start();
    await settle();
    host.output('é'.repeat(2_500));
    expect(writes.at(-1)).toBeInstanceOf(Uint8Array);
    expect(host.acked()).toEqual([5_000]);
  });

  it('attaches again after a reconnect and rewrites the screen from the new scrollback', async () => {
    const host = new FakeTerminalHost();
    const { screen } = link(host);
    await settle();
    host.output('before');
    host.setConnection('lost');
    host.scrollback += ' while away';
    host.setConnection('open');
    await settle();
    expect(screen.text).toBe('before while away');
    expect(host.calls.filter((c) => c.method === 'attachAgentTerminal')).toHaveLength(2);
  });

  it('ignores chunks of an earlier attachment that arrive before the attach answer', async () => {
    const host = new FakeTerminalHost();
    host.scrollback = 'screen';
    const { screen } = link(host);
    host.output(' late');
    await settle();
    expect(screen.text).toBe('screen late');
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
