import { describe, expect, it } from 'vitest';
import { TerminalInput } from './terminalInput';

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

