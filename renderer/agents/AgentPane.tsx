import { useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { LoadFailureBoundary } from '../components/LoadFailureBoundary';
import { preloadable } from '../components/preloadable';
import type { Agent } from '../../shared/entities/agents';
import type { MergeQueueEntry } from '../../shared/entities/mergeQueue';
import type { AgentProfile } from '../../shared/entities/profiles';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Worktree } from '../../shared/entities/worktrees';
import type { ForgeLink } from '../../shared/forge';
import { AccountPausedNote } from '../accounts/AccountPausedNote';
import { usePendingAction } from '../components/usePendingAction';
import { endedHint, isSessionLive } from '../format/agentPresentation';
import { errorMessage } from '../format/errorMessage';
import type { AgentWork } from '../store/selectors';
import { useDroverActions } from '../store/StoreContext';
import type { AgentTerminalHandle } from '../terminal/AgentTerminal';
import { PullRequestChip } from '../forge/PullRequestChip';
import { MenuButton, type MenuAction } from '../components/MenuButton';
import { BranchChip } from '../worktrees/BranchChip';
import { OverlapChips } from '../worktrees/OverlapChips';
import type { ProjectOverlaps } from '../../shared/overlaps';
import { AgentStateBadge } from './AgentStateBadge';
import { CliVersionNote } from './CliVersionNote';
import { QuotaChip } from './QuotaChip';
import { AgentTaskBadges } from './AgentTaskBadges';
import { InboxButton } from './InboxBadge';
import { isInMergeQueue, MergeQueueChip } from './MergeQueueChip';
import { PaneIcon } from './PaneIcon';
import { inputTarget, startReached, type PendingStart } from './pendingStart';
import { usePaneWidth } from './usePaneWidth';
import { WakesHeldNote } from './WakesHeldNote';
import { machineOfPage } from '../transport/machinePage';

// xterm is most of the bundle: the projects list never needs it.
const { Component: AgentTerminal } = preloadable(
  () => import('../terminal/AgentTerminal'),
  (module) => module.AgentTerminal,
  <div className="agent-terminal" />,
);

/** What a start that came to nothing says of the keys held for it. */
const TYPING_NOT_SENT = 'What you typed while it was starting was not sent.';

export interface AgentPaneHandle {
  focus(): void;
}

interface AgentPaneProps {
  agent: Agent;
  /** Position in the grid; the first nine have an Alt+digit shortcut. */
  index: number;
  session: AgentSession | undefined;
  profile: AgentProfile | undefined;
  work: AgentWork;
  /** The agent's own worktree, if it has one. */
  worktree: Worktree | undefined;
  /** The agent's issue and pull request, if it has one. */
  forgeLink: ForgeLink | undefined;
  /** What the overlap radar sees in the project (its header names the agents this one overlaps). */
  overlaps: ProjectOverlaps | null;
  /** Its branch's entry in the merge queue, if it has one. */
  mergeQueueEntry: MergeQueueEntry | undefined;
  maximised: boolean;
  /** The grid layout can show one pane alone; the others show one large already. */
  canMaximise: boolean;
  hidden: boolean;
  onToggleMaximise(): void;
  onEdit(): void;
  onOpenInbox(): void;
  onOpenChanges(): void;
  onRemove(): void;
  onFocusWithin(): void;
  ref?: Ref<AgentPaneHandle>;
}

/** One agent: a header with its state and controls over its live terminal (or why it cannot run). */
export function AgentPane(props: AgentPaneProps) {
  const { agent, index, session, profile, work, worktree, maximised, hidden, ref } = props;
  const { startAgent, stopAgent, restartAgent, holdAgentWakes, queueForMerge, removeFromMergeQueue } = useDroverActions();
  const { pending, error: actionError, run } = usePendingAction();
  const rootRef = useRef<HTMLElement>(null);
  const terminalRef = useRef<AgentTerminalHandle>(null);
  const nameId = useId();
  const live = isSessionLive(session);
  const [pendingStart, setPendingStart] = useState<PendingStart | null>(null);
  /** The last start's session ended before it was live, and what was typed for it was dropped. */
  const [typingDropped, setTypingDropped] = useState(false);
  // Once the page shows the session a start made, the start is over (React's way to adjust state to new props).
  if (pendingStart && startReached(pendingStart, session)) setPendingStart(null);
  const target = inputTarget(pendingStart, session);
  const starting = target === 'starting';
  const width = usePaneWidth(rootRef);

  useImperativeHandle(ref, () => ({ focus: () => (terminalRef.current ?? rootRef.current)?.focus() }), []);

  const startsAgent = (action: () => Promise<AgentSession>) => () =>
    void run(async () => {
      setTypingDropped(false);
      setPendingStart({ seq: null });
      try {
        const started = await action();
        setPendingStart({ seq: started.seq });
      } catch (failure) {
        setPendingStart(null);
        if (!terminalRef.current?.dropHeldInput()) throw failure;
        throw new Error(`${errorMessage(failure)} ${TYPING_NOT_SENT}`, { cause: failure });
      }
    });
  const start = startsAgent(() => startAgent(agent.id, true));
  const cannotStart = live ? null : (actionError ?? profile?.unavailableReason ?? null);
  const shortcut = index < 9 ? `Alt+${index + 1}` : null;
  const machine = machineOfPage();
  const [pullRequestShown, setPullRequestShown] = useState(false);
  const hasPullRequest = Boolean(props.forgeLink?.pullRequest);
  const queueEntry = props.mergeQueueEntry;
  const mergeQueueActions: MenuAction[] = isInMergeQueue(queueEntry)
    ? [{ label: 'Remove from merge queue', run: () => void run(() => removeFromMergeQueue(agent.id)) }]
    : worktree?.state === 'ready'
      ? [{ label: 'Queue for merge', run: () => void run(() => queueForMerge(agent.id)) }]
      : [];
  // The header keeps one line: what is used less than starting and stopping waits in this menu.
  const moreActions: MenuAction[] = [
    ...(live ? [{ label: 'Restart', run: startsAgent(() => restartAgent(agent.id)) }] : []),
    ...(worktree?.ownsBranch && !hasPullRequest && worktree.state === 'ready' ? [{ label: 'Open pull request…', run: () => setPullRequestShown(true) }] : []),
    ...mergeQueueActions,
    agent.wakesHeld
      ? { label: 'Resume wakes', run: () => void run(() => holdAgentWakes(agent.id, false)) }
      : { label: 'Hold wakes', run: () => void run(() => holdAgentWakes(agent.id, true)) },
    { label: 'Edit agent…', run: props.onEdit },
    { label: 'Remove agent…', run: props.onRemove, danger: true },
  ];

  return (
    <section
      ref={rootRef}
      aria-labelledby={nameId}
      tabIndex={-1}
      hidden={hidden}
      data-width={width}
      className={`agent-pane ${maximised ? 'agent-pane--maximised' : ''}`}
      onFocus={props.onFocusWithin}
    >
      <header className="agent-pane__header">
        <div className="agent-pane__title">
          {shortcut && (
            <kbd className="agent-pane__index" title={`Focus with ${shortcut}`} aria-hidden="true">
              {index + 1}
            </kbd>
          )}
          <h3 id={nameId} className="agent-pane__name">
            {agent.name}
          </h3>
          {machine && <span className="machine-chip">on {machine}</span>}
          <AgentStateBadge session={session} />
          <span className="agent-pane__role" title={agent.role}>
            {agent.role || profile?.name}
          </span>
          <span className="agent-pane__actions">
            {live ? (
              <button type="button" className="button button--ghost button--row" disabled={pending} onClick={() => void run(() => stopAgent(agent.id))}>
                <PaneIcon name="stop" /> <span className="agent-pane__action-text">Stop</span>
              </button>
            ) : (
              <button type="button" className="button button--ghost button--row agent-pane__start" disabled={pending} onClick={start}>
                <PaneIcon name="start" /> <span className="agent-pane__action-text">Start</span>
              </button>
            )}
            <span className="agent-pane__divider" aria-hidden="true" />
            {props.canMaximise && (
              <button
                type="button"
                className="button button--ghost button--icon"
                aria-label={maximised ? 'Restore grid' : 'Maximise'}
                aria-pressed={maximised}
                title={`${maximised ? 'Restore grid' : 'Maximise'} (Ctrl+Shift+Enter)`}
                onClick={props.onToggleMaximise}
              >
                <PaneIcon name={maximised ? 'restore' : 'maximise'} />
              </button>
            )}
            <MenuButton label={`More actions for ${agent.name}`} icon={<PaneIcon name="more" />} actions={moreActions} />
          </span>
        </div>
        <div className="agent-pane__badges">
          <QuotaChip session={session} />
          <CliVersionNote session={session} />
          <AccountPausedNote agent={agent} />
          <WakesHeldNote agent={agent} />
          <InboxButton count={work.newMessages} onOpen={props.onOpenInbox} />
          <AgentTaskBadges work={work} />
          {worktree && <BranchChip agentName={agent.name} worktree={worktree} onReview={props.onOpenChanges} />}
          {worktree && <OverlapChips agentId={agent.id} overlaps={props.overlaps} />}
          {queueEntry && <MergeQueueChip entry={queueEntry} />}
          {worktree?.ownsBranch && (
            <PullRequestChip
              agent={agent}
              worktree={worktree}
              link={props.forgeLink}
              dialogShown={pullRequestShown}
              onShowDialog={() => setPullRequestShown(true)}
              onCloseDialog={() => setPullRequestShown(false)}
            />
          )}
        </div>
      </header>
      {cannotStart ? (
        <div role="alert" className="agent-pane__problem">
          <p className="agent-pane__problem-title">{agent.name} cannot start</p>
          <p>{cannotStart}</p>
          <p className="agent-pane__problem-hint">Install the command, or use Edit agent to pick another profile, then press Start.</p>
        </div>
      ) : (
        <>
          {actionError && (
            <p role="alert" className="agent-pane__error">
              {actionError}
            </p>
          )}
          {typingDropped && !live && (
            <p role="alert" className="agent-pane__error">
              {agent.name} ended before it was running. {TYPING_NOT_SENT}
            </p>
          )}
          <LoadFailureBoundary what={`${agent.name}'s terminal`}>
            <AgentTerminal
              ref={terminalRef}
              agentId={agent.id}
              label={`${agent.name} terminal`}
              live={live}
              inputTarget={target}
              sessionId={session?.id ?? null}
              onStartAgain={start}
              onHeldInputDropped={() => setTypingDropped(true)}
            />
          </LoadFailureBoundary>
          {starting ? (
            <p role="status" className="agent-pane__ended">
              Starting {agent.name}… what you type now is sent to it once it runs.
            </p>
          ) : (
            !live && (
              <p className="agent-pane__ended">
                {endedHint(session)} Press <kbd>Enter</kbd> here to {session ? 'start it again' : 'start it'}.
              </p>
            )
          )}
        </>
      )}
    </section>
  );
}
