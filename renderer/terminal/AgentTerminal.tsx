import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type Ref, type RefObject } from 'react';
import { terminalCommandFor, workspaceCommandFor } from '../keyboard/agentShortcuts';
import { paneAwayWords } from '../format/connectionLost';
import { useConnection, useConnectionLoss } from '../store/hooks';
import { usePhoneLayout } from '../store/phoneLayout';
import { useBridge } from '../store/StoreContext';
import { machineOfPage } from '../transport/machinePage';
import { AgentTerminalLink, xtermScreen } from './agentTerminalLink';
import { copySelection } from './clipboard';
import { createAgentXterm, followPtySize, paneSize, type AgentXterm } from './createAgentXterm';
import { extraKeyData, withControl, type ExtraKey } from './extraKeys';
import { forwardTyping, TerminalInput, type InputTarget } from './terminalInput';
import { TerminalKeysRow } from './TerminalKeysRow';
import { TerminalSearchBar } from './TerminalSearchBar';
import { typingPriority } from './typingPriority';

/** Resizing a PTY redraws the agent's whole screen: wait until the pane stops changing size. */
const RESIZE_DEBOUNCE_MS = 120;

export type { InputTarget };

export interface AgentTerminalHandle {
  focus(): void;
  /** A start was refused: drops the keys held for it (see TerminalInput.drop). */
  dropHeldInput(): boolean;
}

interface AgentTerminalProps {
  agentId: string;
  /** "<agent name> terminal": names the terminal's group and its input. */
  label: string;
  /** A process is behind the terminal: the PTY may take the pane's size (see resizeAgent). */
  live: boolean;
  /** Where typed keys go (held while a start is on its way). */
  inputTarget: InputTarget;
  /** Changes with each new session, whose PTY starts at the host's default size. */
  sessionId: string | null;
  /** Enter in a terminal whose session ended. */
  onStartAgain(): void;
  /** Keys held for a start were dropped: the session it made ended before it was live. */
  onHeldInputDropped(): void;
  ref?: Ref<AgentTerminalHandle>;
}

/**
 * True once the element has come into view (and from then on): a page of 200 agents makes and
 * attaches only the terminals a person can see, and the others as they scroll in.
 */
function useSeen(ref: RefObject<HTMLElement | null>): [boolean, () => void] {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || seen) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen]);
  const markSeen = useCallback(() => setSeen(true), []);
  return [seen, markSeen];
}

/**
 * An agent's real terminal: the host's copy of its screen and history, then its live output; keys
 * and size go back to its PTY. It is made when it first comes into view.
 */
export function AgentTerminal({ agentId, label, live, inputTarget, sessionId, onStartAgain, onHeldInputDropped, ref }: AgentTerminalProps) {
  const bridge = useBridge();
  const away = useConnection() === 'lost';
  const loss = useConnectionLoss();
  const hostRef = useRef<HTMLDivElement>(null);
  const [seen, markSeen] = useSeen(hostRef);
  const [xterm, setXterm] = useState<AgentXterm | null>(null);
  /** Focus asked for before the terminal was made (it is made when it comes into view): given once it is. */
  const focusWanted = useRef(false);
  const [searching, setSearching] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(null);
  const startAgainRef = useRef(onStartAgain);
  const heldInputDroppedRef = useRef(onHeldInputDropped);
  useEffect(() => {
    startAgainRef.current = onStartAgain;
    heldInputDroppedRef.current = onHeldInputDropped;
  });
  const input = useMemo(() => new TerminalInput((data) => void bridge.call('writeAgentInput', { agentId, data }).catch(() => undefined)), [bridge, agentId]);
  const phone = usePhoneLayout();
  // The phone row's Ctrl: it applies to the next character typed, then lets go.
  const [controlLatched, setControlLatched] = useState(false);
  const controlLatchedRef = useRef(false);
  const latchControl = useCallback((latched: boolean) => {
    controlLatchedRef.current = latched;
    setControlLatched(latched);
  }, []);
  // Before the browser handles another event: a key typed right after Restart is held for the new
  // session, never sent to the old one, whenever React runs its passive effects.
  useLayoutEffect(() => {
    if (input.setTarget(inputTarget)) heldInputDroppedRef.current();
  }, [input, inputTarget]);

  useImperativeHandle(
    ref,
    () => ({
      focus: () => {
        if (xterm) xterm.terminal.focus();
        else {
          focusWanted.current = true;
          markSeen();
        }
      },
      dropHeldInput: () => input.drop(),
    }),
    [xterm, markSeen, input],
  );

  useEffect(() => {
    const host = hostRef.current;
    if (!host || !seen) return;
    const created = createAgentXterm(host);
    const { terminal } = created;
    // The pane's size goes to the host as a layout's: the PTY takes it if this page owns it (it typed last, see resizeAgent).
    const reportPaneSize = () => {
      const size = paneSize(created);
      if (size) bridge.call('resizeAgent', { agentId, ...size, byLayout: true }).catch(() => undefined);
    };

    terminal.attachCustomKeyEventHandler((event) => {
      if (workspaceCommandFor(event)) return false;
      const command = terminalCommandFor(event);
      if (command) {
        // Paste is left to the browser: its paste event reaches xterm, which sends the text.
        if (command !== 'paste') event.preventDefault();
        if (event.type === 'keydown' && command === 'copy') void copySelection(created);
        if (event.type === 'keydown' && command === 'search') setSearching(true);
        return false;
      }
      if (input.target === 'ended' && event.key === 'Enter' && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) {
        if (event.type === 'keydown') startAgainRef.current();
        return false;
      }
      return true;
    });
    const ptySize = followPtySize(created);
    // The screen takes the PTY's size from the host (the snapshot's, then the stream's notes), never
    // from its box, so nothing resizes it in the middle of a snapshot it is parsing.
    const screen = typingPriority.screenOf(created, xtermScreen(terminal, () => paneSize(created)), {
      pause: () => link.pause(),
      resume: () => link.resume(),
      mayPause: () => terminal.buffer.active.viewportY >= terminal.buffer.active.baseY,
    });
    const link = new AgentTerminalLink(bridge, agentId, screen, setLinkError);
    // Keys only: xterm's own answers (device attributes, focus and cursor reports) are not typing.
    const keyTyped = terminal.onKey(() => typingPriority.typed(created));
    const stopTyping = forwardTyping(terminal, () => link.restoring, (data) => {
      if (!controlLatchedRef.current) return input.type(data);
      latchControl(false);
      input.type(withControl(data));
    });
    link.start();

    let resizeTimer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(reportPaneSize, RESIZE_DEBOUNCE_MS);
    });
    observer.observe(host);
    setXterm(created);
    if (focusWanted.current) {
      focusWanted.current = false;
      terminal.focus();
    }

    return () => {
      clearTimeout(resizeTimer);
      observer.disconnect();
      link.stop();
      screen.dispose();
      keyTyped.dispose();
      stopTyping();
      ptySize.dispose();
      terminal.dispose();
      setXterm(null);
    };
  }, [bridge, agentId, seen, input, latchControl]);

  const pressExtraKey = (key: ExtraKey['key']) => {
    if (key === 'Control') latchControl(!controlLatchedRef.current);
    else if (xterm) input.type(extraKeyData(key, xterm.terminal.modes.applicationCursorKeysMode));
  };

  useEffect(() => {
    xterm?.terminal.textarea?.setAttribute('aria-label', label);
  }, [xterm, label]);

  useEffect(() => {
    if (!xterm || !live || !sessionId) return;
    const size = paneSize(xterm);
    if (size) bridge.call('resizeAgent', { agentId, ...size, byLayout: true }).catch(() => undefined);
  }, [bridge, agentId, xterm, live, sessionId]);

  return (
    <div role="group" aria-label={label} className="agent-terminal">
      {searching && xterm && (
        <TerminalSearchBar
          search={xterm.search}
          label={`Search ${label}`}
          onClose={() => {
            xterm.search.clearDecorations();
            setSearching(false);
            xterm.terminal.focus();
          }}
        />
      )}
      {linkError && (
        <p role="alert" className="agent-terminal__error">
          Terminal unavailable: {linkError}
        </p>
      )}
      <div ref={hostRef} className="agent-terminal__screen" />
      {phone && live && xterm && <TerminalKeysRow label={label} controlLatched={controlLatched} onKey={pressExtraKey} />}
      {live && away && (
        // Over the screen, not beside it: a row taken from the terminal would resize the agent's PTY.
        <p role="status" className="agent-terminal__away">
          {paneAwayWords(machineOfPage(), loss)}
        </p>
      )}
    </div>
  );
}
