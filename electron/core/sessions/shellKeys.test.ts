import { describe, expect, it } from 'vitest';
import { ShellKeys } from './shellKeys';

/** A session that records what reached the shell, whose turn before a line settles when the test says. */
function recordingSession() {
  const events: string[] = [];
  const settles: Array<() => void> = [];
  const keys = new ShellKeys({
    send: (data) => events.push(`send ${JSON.stringify(data)}`),
    lineBeginning: () => {
      events.push('line begins');
      return new Promise<void>((resolve) => settles.push(resolve));
    },
    submitted: (line) => events.push(`submitted ${line.text ?? '?'}`),
  });
  return { keys, events, settleTurnBefore: () => settles.shift()?.() };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ShellKeys', () => {
  it('sends typing at once, but holds the Enter (and every key after it) until the turn before the line has its checkpoint', async () => {
    const { keys, events, settleTurnBefore } = recordingSession();
    keys.write('l');
    keys.write('s');
    keys.write('\r');
    keys.write('p');
    await flush();
    expect(events).toEqual(['line begins', 'send "l"', 'send "s"']);
    settleTurnBefore();
    await flush();
    expect(events).toEqual(['line begins', 'send "l"', 'send "s"', 'send "\\r"', 'submitted ls', 'line begins', 'send "p"']);
  });

  it('never holds Ctrl-C or another control key that begins nothing', async () => {
    const { keys, events } = recordingSession();
    keys.write('\u0003');
    keys.write('\r');
    expect(events).toEqual(['send "\\u0003"', 'send "\\r"']);
  });

  it('a line pasted with its Enter waits whole, then is submitted', async () => {
    const { keys, events, settleTurnBefore } = recordingSession();
    keys.write('make\r');
    expect(events).toEqual(['line begins']);
    settleTurnBefore();
    await flush();
    expect(events).toEqual(['line begins', 'send "make\\r"', 'submitted make']);
  });
});
