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
 * lost. A start refused (see drop), or a session that ended before it ran, drops them.
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

  setTarget(target: InputTarget): void {
    this.current = target;
    if (target === 'starting') return;
    const held = this.held.join('');
    this.held = [];
    if (target === 'live' && held) this.send(held);
  }
}

