import { describe, expect, it } from 'vitest';
import { forwardTyping, TerminalInput } from './terminalInput';

describe('TerminalInput', () => {
  it('holds what is typed while the agent starts and sends it, in order and before anything later, once it is live', () => {
    const sent: string[] = [];
    const input = new TerminalInput((data) => sent.push(data));
    input.setTarget('starting');
    for (const key of 'for i in 1 2') input.type(key);
    expect(sent).toEqual([]);
    input.setTarget('live');
    input.type('; do');
    expect(sent).toEqual(['for i in 1 2', '; do']);
  });

  it('sends nothing while the agent is neither live nor starting, and drops what a failed start held', () => {
    const sent: string[] = [];
    const input = new TerminalInput((data) => sent.push(data));
    input.type('x');
    input.setTarget('starting');
    input.type('y');
    input.setTarget('ended');
    input.setTarget('live');
    expect(sent).toEqual([]);
  });

  it('says it dropped what it held when the session started for it ended before it was live, and only then', () => {
    const sent: string[] = [];
    const input = new TerminalInput((data) => sent.push(data));
    input.setTarget('starting');
    expect(input.setTarget('ended')).toBe(false);
    input.setTarget('starting');
    input.type('meant for the new session');
    expect(input.setTarget('ended')).toBe(true);
    expect(input.setTarget('ended')).toBe(false);
    input.setTarget('starting');
    input.type('sent');
    expect(input.setTarget('live')).toBe(false);
    expect(sent).toEqual(['sent']);
  });

  it('drops what it held for a start that was refused, and sends what is typed after to the session that runs', () => {
    const sent: string[] = [];
    const input = new TerminalInput((data) => sent.push(data));
    input.setTarget('starting');
    input.type('meant for the new session');
    expect(input.drop()).toBe(true);
    expect(input.drop()).toBe(false);
    input.setTarget('live');
    input.type('x');
    expect(sent).toEqual(['x']);
  });
});

/** An xterm's onKey and onData, fired as xterm fires them: a key's data right after the key. */
function fakeXterm() {
  const keyListeners: ((event: { key: string }) => void)[] = [];
  const dataListeners: ((data: string) => void)[] = [];
  const listen = <T>(listeners: T[]) => (listener: T) => {
    listeners.push(listener);
    return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
  };
  return {
    source: { onKey: listen(keyListeners), onData: listen(dataListeners) },
    press(key: string) {
      keyListeners.forEach((listener) => listener({ key }));
      dataListeners.forEach((listener) => listener(key));
    },
    answer(data: string) {
      dataListeners.forEach((listener) => listener(data));
    },
  };
}

describe('forwardTyping', () => {
  it('while a snapshot is parsed, sends the keys a person presses and none of the answers the xterm gives what it replays', () => {
    const xterm = fakeXterm();
    let restoring = true;
    const typed: string[] = [];
    const stop = forwardTyping(xterm.source, () => restoring, (data) => typed.push(data));
    xterm.answer('\u001b[I');
    xterm.press('l');
    xterm.answer('\u001b[12;1R');
    xterm.press('s');
    restoring = false;
    xterm.answer('pasted');
    xterm.press('\r');
    expect(typed).toEqual(['l', 's', 'pasted', '\r']);
    stop();
    xterm.press('x');
    expect(typed).toHaveLength(4);
  });
});
