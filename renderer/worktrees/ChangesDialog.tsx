import { useCallback, useMemo, useRef, useState } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { Worktree } from '../../shared/entities/worktrees';
import { countOf } from '../../shared/plural';
import { restoreRefusal } from '../../shared/restoreRefusal';
import { FormError } from '../components/FormError';
import { useOpenInEditor } from '../components/useOpenInEditor';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { useNow } from '../components/useNow';
import { useStoredFlag } from '../components/useStoredFlag';
import { formatClockTime } from '../format/clockTime';
import { diffCommandFor, type DiffCommand } from '../keyboard/diffShortcuts';
import { useDialogKeyDown } from '../keyboard/useDialogKeyDown';
import { useAgentSession, useWorkState } from '../store/hooks';
import { useBridge } from '../store/StoreContext';
import { entitiesOf } from '../store/versioned';
import { pushAgentBranch } from './branchActions';
import { RevertStatus, useChangeRevert } from './ChangeRevert';
import { firstChangedLine, firstChangedLineOf } from './commentLines';
import { DiffComments, type CommentDraft } from './DiffComments';
import { diffRows } from './diffChunks';
import { DiffFileList } from './DiffFileList';
import { DiffRowsView, type DiffRowsHandle, type LineSelection } from './DiffRowsView';
import { scopeOf, scopeTurn, stepTurn, WHOLE_BRANCH, type DiffScope } from './diffScope';
import { MergeDialog } from './MergeDialog';
import { TurnList, turnTitle } from './TurnList';
import { TurnRestore } from './TurnRestore';
import { useWorktreeDiff } from './useWorktreeDiff';
import { useTurns } from './useTurns';

export { readDiffAhead } from './useWorktreeDiff';

interface ChangesDialogProps {
  agent: Agent;
  worktree: Worktree;
  onClose(): void;
}

/**
 * What an agent changed: on its whole branch (commits, staged, unstaged and untracked files), in
 * one of its turns, or since one, as a file list and a diff that follows the worktree as it changes.
 * Lines of the diff take comments for the agent; a hunk or a file can be reverted in the worktree, and
 * a turn's checkpoint restored (either undoable); the branch
 * merges into its parent and pushes from here.
 */
export function ChangesDialog({ agent, worktree, onClose }: ChangesDialogProps) {
  const [scope, setScope] = useState<DiffScope>(WHOLE_BRANCH);
  const { diff, loading, error } = useWorktreeDiff(worktree, scope);
  const { items: turns } = useTurns(agent.id);
  const session = useAgentSession(agent);
  const now = useNow(false);
  const bridge = useBridge();
  const [split, setSplit] = useStoredFlag('drover.diffSplit', false);
  const [selectedPath, setSelectedPath] = useState<string | null>(null);
  const [draft, setDraft] = useState<CommentDraft | null>(null);
  const [merging, setMerging] = useState(false);
  const [pushed, setPushed] = useState<string | null>(null);
  const push = usePendingAction();
  const editor = useOpenInEditor(onClose);
  const rowsRef = useRef<DiffRowsHandle>(null);
  const contentRef = useRef<HTMLDivElement>(null);

  const files = useMemo(() => diff?.files ?? [], [diff]);
  const rows = useMemo(() => diffRows(files), [files]);
  // Nothing to merge: no commit of the branch and no file it changed (a turn's diff, without the
  // branch's commits, cannot tell; the merge dialog then says).
  const canMerge = diff !== null && (diff.commits === null || diff.commits.length > 0 || diff.files.length > 0);
  const selected = Math.max(0, files.findIndex((file) => file.path === selectedPath));
  const turnAt = scopeTurn(scope);
  const turn = turns.find((candidate) => candidate.n === turnAt);
  const tasksById = useWorkState(agent.projectId, 'tasksById');
  const whyNoRestore = useMemo(() => restoreRefusal(agent.name, session, entitiesOf(tasksById), worktree.path), [agent.name, session, tasksById, worktree.path]);
  // One turn's change is history: only a diff that ends at the worktree now can be reverted in it.
  const whyNoRevert =
    scope.kind === 'turn'
      ? 'Reverting works on the worktree as it is now: show the whole branch (w) or everything since a turn (s).'
      : restoreRefusal(agent.name, session, entitiesOf(tasksById), worktree.path, 'revert');
  const revert = useChangeRevert(agent, diff?.base ?? null);
  const revertActions = {
    refusal: whyNoRevert,
    pending: revert.pending,
    hunk: (fileIndex: number, hunkIndex: number) => {
      const file = files[fileIndex];
      if (file) revert.hunk(file, hunkIndex);
    },
    file: (fileIndex: number) => {
      const file = files[fileIndex];
      if (file) revert.file(file);
    },
  };

  const select = (index: number) => {
    const file = files[index];
    if (!file) return;
    setSelectedPath(file.path);
    rowsRef.current?.showFile(index);
  };

  const selectLines = useCallback(
    ({ fileIndex, side, startLine, endLine }: LineSelection) => {
      const file = files[fileIndex];
      if (file) setDraft({ path: file.path, side, startLine, endLine });
    },
    [files],
  );

  const commentOnSelectedFile = () => {
    const file = files[selected];
    if (!file) return;
    const side = file.status === 'deleted' ? 'old' : 'new';
    const line = firstChangedLine(file.patch, side) ?? 1;
    setDraft({ path: file.path, side, startLine: line, endLine: line });
  };

  /** At the selected lines when they are of this file's new side, else at its first change. */
  const openInEditor = (fileIndex: number) => {
    const file = files[fileIndex];
    if (!file) return;
    const line = draft?.path === file.path && draft.side === 'new' ? draft.startLine : firstChangedLineOf(file);
    editor.open({ projectId: agent.projectId, agentId: agent.id, file: file.path, line });
  };

  const run = (command: DiffCommand) => {
    if (command === 'nextFile') select(Math.min(selected + 1, files.length - 1));
    else if (command === 'previousFile') select(Math.max(selected - 1, 0));
    else if (command === 'nextTurn' || command === 'previousTurn') setScope(stepTurn(scope, turns, command === 'nextTurn' ? 1 : -1));
    else if (command === 'wholeBranch') setScope(WHOLE_BRANCH);
    else if (command === 'thisTurn') setScope(scopeOf('turn', turns, turnAt));
    else if (command === 'sinceTurn') setScope(scopeOf('since', turns, turnAt));
    else if (command === 'comment') commentOnSelectedFile();
    else if (command === 'openInEditor') openInEditor(selected);
    else if (command === 'toggleLayout') setSplit(!split);
    else if (command === 'merge') setMerging(canMerge);
    else if (command === 'revertHunk' || command === 'revertFile') revertAtKey(command);
    else {
      const fileIndex = rowsRef.current?.showHunk(command === 'nextHunk' ? 1 : -1);
      if (fileIndex !== null && fileIndex !== undefined) setSelectedPath(files[fileIndex]?.path ?? null);
    }
  };

  /** `x`: the hunk at the top of the diff; `X`: the selected file. Refused in words when a button would be disabled. */
  const revertAtKey = (command: 'revertHunk' | 'revertFile') => {
    if (whyNoRevert !== null) {
      revert.refuse(whyNoRevert);
      return;
    }
    if (command === 'revertFile') {
      revertActions.file(selected);
      return;
    }
    const atTop = rowsRef.current?.hunkAtTop();
    if (atTop) revertActions.hunk(atTop.fileIndex, atTop.hunkIndex);
  };

  useDialogKeyDown(contentRef, (event) => {
    const command = diffCommandFor(event);
    if (!command) return;
    event.preventDefault();
    run(command);
  });

  const pushBranch = () => void push.run(async () => setPushed(await pushAgentBranch(bridge, agent.id)), 'Could not push: ');

  const counts = diff && `${countOf(diff.files.length, 'file')}, +${diff.additions} −${diff.deletions}`;
  const summary = diff && (diff.commits ? `${countOf(diff.commits.length, 'commit')}, ${counts}` : counts);
  const scopeButton = (kind: DiffScope['kind'], label: string, title: string) => (
    <button
      type="button"
      className="button button--ghost"
      aria-pressed={scope.kind === kind}
      disabled={kind !== 'branch' && turns.length === 0}
      title={title}
      onClick={() => setScope(scopeOf(kind, turns, turnAt))}
    >
      {label}
    </button>
  );
  const sinceLabel = `Since turn ${turnAt ?? turns.at(-1)?.n ?? ''}`.trim();
  return (
    <ModalDialog
      title={`Changes of ${agent.name}`}
      className="changes-dialog"
      onClose={onClose}
      headerExtras={
        <span className="changes-dialog__meta">
          <code>{worktree.branch}</code> → <code>{worktree.parentBranch}</code>
          {summary && <span>{summary}</span>}
          {loading && diff && <span role="status">Updating…</span>}
        </span>
      }
    >
      <div ref={contentRef} className="changes-dialog__content">
        <div className="changes-dialog__toolbar">
          <span role="group" aria-label="Diff scope" className="changes-dialog__layout">
            {scopeButton('branch', 'Whole branch', `Everything ${worktree.branch} changed since it left ${worktree.parentBranch} (w)`)}
            {scopeButton('turn', 'This turn', "The selected turn's change alone (t)")}
            {scopeButton('since', sinceLabel, 'Everything from the start of the selected turn to now (s)')}
          </span>
          <span role="group" aria-label="Diff layout" className="changes-dialog__layout">
            <button type="button" className="button button--ghost" aria-pressed={!split} onClick={() => setSplit(false)}>
              Unified
            </button>
            <button type="button" className="button button--ghost" aria-pressed={split} onClick={() => setSplit(true)}>
              Split
            </button>
          </span>
          {diff?.commits && diff.commits.length > 0 && (
            <details className="changes-dialog__commits">
              <summary>{countOf(diff.commits.length, 'commit')}</summary>
              <ol>
                {diff.commits.map((commit) => (
                  <li key={commit.sha}>
                    <code>{commit.sha.slice(0, 8)}</code> {commit.subject} <span className="field-hint">— {commit.author}</span>
                  </li>
                ))}
              </ol>
            </details>
          )}
          <span className="changes-dialog__spacer" />
          {pushed && <span role="status">{pushed}</span>}
          {editor.opened && <span role="status">{editor.opened}</span>}
          <button type="button" className="button button--ghost" disabled={push.pending} onClick={pushBranch}>
            {push.pending ? 'Pushing…' : 'Push branch'}
          </button>
          <button type="button" className="button button--primary" title={canMerge ? 'm' : 'Nothing to merge yet'} disabled={!canMerge} onClick={() => setMerging(true)}>
            Merge into {worktree.parentBranch}…
          </button>
        </div>
        {turn && (
          <div className="changes-dialog__turn" aria-label="Checkpoint">
            <span>
              Checkpoint {turn.n}: <strong>{turnTitle(turn)}</strong> <span className="field-hint">{formatClockTime(turn.takenAt, now)}</span>
            </span>
            <TurnRestore agent={agent} turn={turn} refusal={whyNoRestore} />
          </div>
        )}
        <RevertStatus revert={revert} refusal={whyNoRestore} />
        <FormError message={push.error} />
        <FormError message={editor.error} />
        <FormError message={error && `Could not read the changes: ${error}`} />
        <div className="changes-dialog__body">
          <div className="changes-dialog__side">
            {turns.length > 0 ? (
              <TurnList turns={turns} selected={turnAt} onSelect={(n) => setScope({ kind: scope.kind === 'since' ? 'since' : 'turn', n })} />
            ) : (
              <p className="field-hint">No turns yet: a checkpoint is taken when {agent.name} starts and at the end of each turn.</p>
            )}
            {files.length > 0 && <DiffFileList files={files} selected={selected} onSelect={select} />}
          </div>
          {diff === null ? (
            !error && <p role="status">Reading the changes…</p>
          ) : files.length === 0 ? (
            <p className="changes-dialog__empty">
              {scope.kind === 'branch'
                ? `No changes yet: ${worktree.branch} holds nothing that ${worktree.parentBranch} lacks, committed or not.`
                : scope.kind === 'turn'
                  ? 'No file changed in this turn.'
                  : 'No file changed since this turn began.'}
            </p>
          ) : (
            <DiffRowsView
              ref={rowsRef}
              files={files}
              rows={rows}
              layout={split ? 'split' : 'unified'}
              onTopFile={(index) => setSelectedPath(files[index]?.path ?? null)}
              onSelectLines={selectLines}
              revert={revertActions}
              onOpenFile={openInEditor}
            />
          )}
          <DiffComments agent={agent} files={files} draft={draft} onDraftChange={setDraft} onClose={onClose} />
        </div>
        <p className="changes-dialog__keys">
          <kbd>j</kbd>/<kbd>k</kbd> files · <kbd>n</kbd>/<kbd>p</kbd> hunks · <kbd>,</kbd>/<kbd>.</kbd> turns · <kbd>t</kbd> this turn · <kbd>s</kbd> since ·{' '}
          <kbd>w</kbd> whole branch · <kbd>c</kbd> comment · <kbd>e</kbd> editor · <kbd>x</kbd>/<kbd>X</kbd> revert hunk/file · <kbd>u</kbd> unified/split · <kbd>m</kbd> merge
        </p>
      </div>
      {merging && <MergeDialog agent={agent} worktree={worktree} onClose={() => setMerging(false)} />}
    </ModalDialog>
  );
}
