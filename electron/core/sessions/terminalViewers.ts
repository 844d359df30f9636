export interface TerminalSize {
  cols: number;
  rows: number;
}

/** What a page's terminal sends by itself when it gains or loses focus (for a program that asked, as TUIs do). */
const FOCUS_REPORTS = new Set(['\u001b[I', '\u001b[O']);

/** Whether input sent by a viewer is the person typing (it takes the PTY), not its terminal reporting focus. */
export function isTyping(data: string): boolean {
  return !FOCUS_REPORTS.has(data);
}

/**
 * Whose size one agent's PTY takes, among the clients viewing its terminal (a desktop window and a
 * phone page at once): the viewer that last typed into it or resized it on purpose owns it. A
 * viewer that only attached, or fitted its pane because the page was laid out, reports its size
 * and changes nothing, unless no viewer owns the PTY (the first one, or after the owner left).
 * Each method answers the size the PTY takes now, or null when it stays as it is.
 */
export class TerminalViewers<Viewer extends object> {
  private readonly sizes = new Map<Viewer, TerminalSize>();
  private owner: Viewer | null = null;

  /** The size the owner asked for; null while no viewer owns the PTY. */
  get ownerSize(): TerminalSize | null {
    return this.owner ? (this.sizes.get(this.owner) ?? null) : null;
  }

  /** `byLayout`: the pane was laid out (an attach, a window's layout), no person resized it. */
  reported(viewer: Viewer, size: TerminalSize, byLayout: boolean): TerminalSize | null {
    this.sizes.set(viewer, size);
    if (this.owner !== viewer && byLayout && this.owner !== null) return null;
    this.owner = viewer;
    return size;
  }

  /** The viewer typed: the PTY takes the size it last reported (if it reported one). */
  typed(viewer: Viewer): TerminalSize | null {
    const size = this.sizes.get(viewer);
    if (!size) return null;
    this.owner = viewer;
    return size;
  }

  /** The viewer detached or went away: its size is forgotten, and if it owned the PTY, nobody does. */
  left(viewer: Viewer): void {
    this.sizes.delete(viewer);
    if (this.owner === viewer) this.owner = null;
  }
}
