/**
 * Why a page's connection to its host is lost, as far as the page can tell: its transport reads it
 * (a door's close code, what the desktop's main process says) and its banner puts it in words.
 */
export type ConnectionLoss =
  /** The machine the line goes to went: ssh's reason, or its host's (a machine's page, a machine followed). */
  | { kind: 'machine'; reason: string }
  /** The `drover serve` that served the page stopped, and with it the door; the host goes on. */
  | { kind: 'serve-ended' }
  /** The host was stopped (`drover host stop`, a restart, a quit): its agents and tasks ended. */
  | { kind: 'host-stopped' }
  /** The connection ended without a word: the host crashed or was killed, or the network dropped. */
  | { kind: 'broke-off' }
  /**
   * The page cannot connect until the person opens the URL `drover serve` printed, and does not try
   * again: it has no token, the server on its port did not prove it holds the token, or the door
   * refused the page's proof.
   */
  | { kind: 'refused'; why: 'no-token' | 'not-the-door' | 'token-refused' };
