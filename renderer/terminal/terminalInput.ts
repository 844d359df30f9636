/**
 * Where keys typed into an agent's terminal can go: to its running session (`live`), nowhere yet
 * because it is being started (`starting`: Start or Restart was pressed, the session it makes is
 * not in the page yet), or nowhere (`ended`: Enter starts it, see AgentTerminal).
 */
export type InputTarget = 'live' | 'starting' | 'ended';

/**
 * Keys typed into an agent's terminal, sent to its PTY in the order they were typed. Keys typed
 * while the agent starts are held and sent, in one piece, as soon as its session is live: under
 * load the start's answer can take a while, and what a person types right after Start must not be
 * lost. A start refused (see drop), or a session that ended before it was live (see setTarget),
 * drops them, and the person is told.
 */
export class TerminalInput {
  private current: InputTarget = 'ended';
  private held: string[] = [];

  constructor(private readonly send: (data: string) => void) {}

  get target(): InputTarget {
    return this.current;
  }

  type(data: string): void {
    if (this.current === 'live') this.send(data);
    else if (this.current === 'starting') this.held.push(data);
  }

  /** The start was refused: what was held for it goes nowhere. Says whether anything was held. */
  drop(): boolean {
    const dropped = this.held.length > 0;
    this.held = [];
    return dropped;
  }

  /**
   * Where keys go from now on: what was held goes to a session that is live. Says whether it was
   * dropped instead (the session the start made ended before it was live).
   */
  setTarget(target: InputTarget): boolean {
    this.current = target;
    if (target === 'starting') return false;
    const held = this.held.join('');
    this.held = [];
    if (target === 'live' && held) this.send(held);
    return target === 'ended' && held.length > 0;
  }
}

/** The part of an xterm that what is typed into it comes from. */
export interface TypingSource {
  onKey(listener: (event: { key: string }) => void): { dispose(): void };
  onData(listener: (data: string) => void): { dispose(): void };
}

/**
 * Passes what an xterm sends on to `type`, and returns what stops it. While a snapshot is parsed
 * (`restoring`) the xterm also answers what it replays as a terminal would (a focus report when it
 * turns focus reports on, cursor reports, colours): that must not reach the agent, but the keys a
 * person presses meanwhile (a reconnect's restore) must. xterm marks a key by firing onKey with
 * the data it sends just before sending it; a paste or an input method's text has no such mark,
 * and during a restore is not sent.
 */
export function forwardTyping(source: TypingSource, restoring: () => boolean, type: (data: string) => void): () => void {
  let pressed: string | null = null;
  const keys = source.onKey(({ key }) => {
    pressed = key;
  });
  const sent = source.onData((data) => {
    const fromKey = pressed === data;
    pressed = null;
    if (fromKey || !restoring()) type(data);
  });
  return () => {
    keys.dispose();
    sent.dispose();
  };
}
