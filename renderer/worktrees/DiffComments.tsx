import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { WorktreeDiffFile } from '../../shared/entities/worktrees';
import { countOf } from '../../shared/plural';
import { lineRange, type DiffComment, type DiffSide } from '../../shared/turns';
import { FormError } from '../components/FormError';
import { useOpenInEditor } from '../components/useOpenInEditor';
import { usePendingAction } from '../components/usePendingAction';
import { useBridge } from '../store/StoreContext';
import { sendDiffComments } from './branchActions';
import { quotedLines } from './commentLines';
import { useDiffComments } from './useTurns';

/** Where a comment being written goes: a file and a range of its lines on one side. */
export interface CommentDraft {
  path: string;
  side: DiffSide;
  startLine: number;
  endLine: number;
}

interface DiffCommentsProps {
  agent: Agent;
  /** The files of the diff on screen (their patches give the quoted lines). */
  files: readonly WorktreeDiffFile[];
  draft: CommentDraft | null;
  onDraftChange(draft: CommentDraft | null): void;
  /** Closes the Changes view, for a terminal editor's pane to take the focus. */
  onClose(): void;
}

/** A line number typed in; never below `min`. */
function LineField({ label, value, min, onChange }: { label: string; value: number; min: number; onChange(line: number): void }) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input className="text-input" type="number" min={min} value={value} onChange={(event) => onChange(Math.max(min, Number(event.target.value) || min))} />
    </label>
  );
}

/** A comment; one on the new file's lines opens there in the editor. */
function CommentItem({ comment, onDelete, onOpen }: { comment: DiffComment; onDelete(): void; onOpen(): void }) {
  const sent = comment.sentAt !== null;
  return (
    <li>
      <article className={`diff-comment ${sent ? 'diff-comment--sent' : ''}`} aria-label={`${comment.path}, ${lineRange(comment)}`}>
        <header className="diff-comment__where">
          <code>{comment.path}</code> {lineRange(comment)}
          <span className="pill" data-tone={sent ? 'done' : 'running'}>
            {sent ? 'Sent' : 'Not sent'}
          </span>
          {comment.side === 'new' && (
            <button type="button" className="button button--ghost button--row" aria-label={`Open ${comment.path}, ${lineRange(comment)} in editor`} onClick={onOpen}>
              Open
            </button>
          )}
          <button type="button" className="button button--ghost button--row" aria-label={`Delete the comment on ${comment.path}, ${lineRange(comment)}`} onClick={onDelete}>
            Delete
          </button>
        </header>
        {comment.quoted && <pre className="diff-comment__quote">{comment.quoted.replace(/\n$/, '')}</pre>}
        <p className="diff-comment__body">{comment.body}</p>
      </article>
    </li>
  );
}

/**
 * Comments on the agent's diff: written on selected lines (or lines typed in), collected, then sent
 * to the agent's inbox as one message, which wakes it once it is ready.
 */
export function DiffComments({ agent, files, draft, onDraftChange, onClose }: DiffCommentsProps) {
  const bridge = useBridge();
  const { items: comments, error: loadError } = useDiffComments(agent.id);
  const [body, setBody] = useState('');
  const [sentNote, setSentNote] = useState<string | null>(null);
  const save = usePendingAction({ clearErrorOnStart: true });
  const send = usePendingAction({ clearErrorOnStart: true });
  const editor = useOpenInEditor(onClose);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const headingId = useId();
  const fieldId = useId();
  const unsent = comments.filter((comment) => comment.sentAt === null).length;
  const file = draft && files.find((candidate) => candidate.path === draft.path);
  const quoted = draft ? quotedLines(file?.patch ?? null, draft.side, draft.startLine, draft.endLine) : '';
  const drafting = draft !== null;

  useEffect(() => {
    if (drafting) bodyRef.current?.focus();
  }, [drafting]);

  const change = (patch: Partial<CommentDraft>) => draft && onDraftChange({ ...draft, ...patch });

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (!draft) return;
    if (!body.trim()) {
      save.setError('Write the comment first.');
      return;
    }
    const ok = await save.run(() => bridge.call('addDiffComment', { agentId: agent.id, ...draft, quoted, body }), 'Could not add the comment: ');
    if (ok) {
      setBody('');
      onDraftChange(null);
    }
  }

  const sendAll = () => void send.run(async () => setSentNote(await sendDiffComments(bridge, agent)), 'Could not send: ');

  return (
    <section className="diff-comments" aria-labelledby={headingId}>
      <h3 id={headingId} className="diff-comments__title">
        Comments
      </h3>
      {drafting && (
        <form className="diff-comments__form" aria-label="New comment" noValidate onSubmit={(event) => void submit(event)}>
          <label className="field">
            <span id={`${fieldId}-file`} className="field-label">
              File
            </span>
            <select aria-labelledby={`${fieldId}-file`} className="select select--field" value={draft.path} onChange={(event) => change({ path: event.target.value })}>
              {files.map((candidate) => (
                <option key={candidate.path} value={candidate.path}>
                  {candidate.path}
                </option>
              ))}
            </select>
          </label>
          <div className="diff-comments__lines">
            <label className="field">
              <span id={`${fieldId}-side`} className="field-label">
                Lines of
              </span>
              <select aria-labelledby={`${fieldId}-side`} className="select select--field" value={draft.side} onChange={(event) => change({ side: event.target.value as DiffSide })}>
                <option value="new">the new file</option>
                <option value="old">the old file</option>
              </select>
            </label>
            <LineField label="First line" value={draft.startLine} min={1} onChange={(startLine) => change({ startLine, endLine: Math.max(startLine, draft.endLine) })} />
            <LineField label="Last line" value={draft.endLine} min={draft.startLine} onChange={(endLine) => change({ endLine })} />
          </div>
          {quoted ? <pre className="diff-comment__quote" aria-label="Lines commented on">{quoted.replace(/\n$/, '')}</pre> : <p className="field-hint">The diff shows none of these lines.</p>}
          <label className="field">
            <span className="field-label">Comment</span>
            <textarea ref={bodyRef} className="text-input text-area" rows={3} value={body} onChange={(event) => setBody(event.target.value)} />
          </label>
          <FormError message={save.error} />
          <div className="dialog__actions">
            <button type="button" className="button" onClick={() => onDraftChange(null)}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={save.pending}>
              Add comment
            </button>
          </div>
        </form>
      )}
      {!drafting && comments.length === 0 && <p className="field-hint">Drag over line numbers in the diff (or press c) to comment on lines.</p>}
      <FormError message={loadError && `Could not read the comments: ${loadError}`} />
      {comments.length > 0 && (
        <ul className="diff-comments__list" aria-label="Comments on the diff">
          {[...comments].reverse().map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              onDelete={() => void save.run(() => bridge.call('deleteDiffComment', { agentId: agent.id, commentId: comment.id }), 'Could not delete: ')}
              onOpen={() => editor.open({ projectId: agent.projectId, agentId: agent.id, file: comment.path, line: comment.startLine })}
            />
          ))}
        </ul>
      )}
      {editor.opened && <p role="status">{editor.opened}</p>}
      <FormError message={editor.error} />
      {sentNote && <p role="status">{sentNote}</p>}
      <FormError message={send.error} />
      <button type="button" className="button button--primary" disabled={unsent === 0 || send.pending} onClick={sendAll}>
        {send.pending ? 'Sending…' : `Send ${countOf(unsent, 'comment')}`}
      </button>
    </section>
  );
}
