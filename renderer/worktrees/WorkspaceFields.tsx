import { useEffect, useId, useState } from 'react';
import type { AgentWorkspaceRequest, ProjectGit } from '../../shared/entities/worktrees';
import { countOf } from '../../shared/plural';
import { Field } from '../components/Field';
import { errorMessage } from '../format/errorMessage';
import { useBridge } from '../store/StoreContext';

export type WorkspaceKind = AgentWorkspaceRequest['kind'];

/** What the person chose in the Add agent dialog; empty fields take the repository's defaults. */
export interface WorkspaceDraft {
  /** Null until the person picks: an own worktree when the project is a git repository. */
  kind: WorkspaceKind | null;
  base: string;
  branch: string;
  worktreePath: string;
  allowDirtyBase: boolean;
}

export const EMPTY_WORKSPACE_DRAFT: WorkspaceDraft = { kind: null, base: '', branch: '', worktreePath: '', allowDirtyBase: false };

/** What the project's repository offers (branches, worktrees), read once per project; null until it answers. */
export function useProjectGit(projectId: string): { git: ProjectGit | null; error: string | null } {
  const bridge = useBridge();
  const [answer, setAnswer] = useState<{ projectId: string; git: ProjectGit | null; error: string | null } | null>(null);
  useEffect(() => {
    let current = true;
    bridge.call('getProjectGit', { projectId }).then(
      (git) => current && setAnswer({ projectId, git, error: null }),
      (failure: unknown) => current && setAnswer({ projectId, git: null, error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [bridge, projectId]);
  return answer?.projectId === projectId ? answer : { git: null, error: null };
}

/**
 * Where the agent will work: what the person picked, else its own worktree where the repository
 * allows one, else the project folder. Null while the repository has not answered and the person
 * picked nothing (no choice is shown as made before it is).
 */
function chosenKind(draft: WorkspaceDraft, git: ProjectGit | null, gitError: string | null): WorkspaceKind | null {
  if (git === null && gitError === null) return draft.kind;
  if (!git || git.problem) return 'project-folder';
  return draft.kind ?? 'new-worktree';
}

/** The request the draft makes; the project folder where the repository cannot have worktrees. */
export function workspaceRequest(draft: WorkspaceDraft, git: ProjectGit | null): AgentWorkspaceRequest {
  const kind = chosenKind(draft, git, null) ?? 'project-folder';
  if (kind === 'new-worktree') {
    return { kind, ...(draft.base ? { base: draft.base } : {}), ...(draft.allowDirtyBase ? { allowDirtyBase: true } : {}) };
  }
  if (kind === 'existing-branch') return { kind, branch: draft.branch || (git?.branches[0] ?? '') };
  if (kind === 'existing-worktree') return { kind, path: draft.worktreePath || (git?.freeWorktrees[0]?.path ?? '') };
  return { kind: 'project-folder' };
}

const KIND_LABELS: readonly [WorkspaceKind, string][] = [
  ['new-worktree', 'Its own worktree, on a new branch'],
  ['existing-branch', 'Its own worktree, on an existing branch'],
  ['existing-worktree', 'An existing worktree'],
  ['project-folder', 'The project folder'],
];

interface WorkspaceFieldsProps {
  git: ProjectGit | null;
  gitError: string | null;
  draft: WorkspaceDraft;
  onChange(draft: WorkspaceDraft): void;
}

/** Where a new agent works: its own git worktree (new branch, existing branch or worktree) or the project folder. */
export function WorkspaceFields({ git, gitError, draft, onChange }: WorkspaceFieldsProps) {
  const legendId = useId();
  const kind = chosenKind(draft, git, gitError);
  const problem = gitError ?? git?.problem ?? null;
  const set = (change: Partial<WorkspaceDraft>) => onChange({ ...draft, ...change });
  const available = (option: WorkspaceKind) =>
    option === 'project-folder' || (git !== null && !git.problem && (option !== 'existing-worktree' || git.freeWorktrees.length > 0));
  const base = draft.base || git?.currentBranch || '';
  const dirtyBase = kind === 'new-worktree' && git !== null && base === git.currentBranch && git.dirtyFiles > 0;

  return (
    <fieldset className="workspace-fields" aria-labelledby={legendId}>
      <legend id={legendId} className="field-label">
        Works in
      </legend>
      {KIND_LABELS.filter(([option]) => option !== 'existing-worktree' || available(option)).map(([option, label]) => (
        <label key={option} className="workspace-fields__choice">
          <input type="radio" name="workspace" value={option} checked={kind === option} disabled={!available(option)} onChange={() => set({ kind: option })} />
          {label}
        </label>
      ))}
      {git === null && !gitError && <span className="field-hint">Looking at the project’s repository…</span>}
      {problem && <span className="field-hint">No worktrees here: {problem}</span>}
      {kind === 'new-worktree' && git && (
        <Field
          label="Starts from"
          note={
            dirtyBase
              ? { text: `${base} has uncommitted changes in the project folder (${countOf(git.dirtyFiles, 'file')}); the worktree starts from its last commit without them.`, kind: 'warning' }
              : { text: `A new branch drover/<name>-… from ${base}, merged back into it when you say so.`, kind: 'hint' }
          }
        >
          {(describedBy) => (
            <BranchSelect branches={git.branches} value={base} describedBy={describedBy} onChange={(branch) => set({ base: branch })} />
          )}
        </Field>
      )}
      {dirtyBase && (
        <label className="workspace-fields__choice">
          <input type="checkbox" checked={draft.allowDirtyBase} onChange={(event) => set({ allowDirtyBase: event.target.checked })} />
          Start without the uncommitted changes
        </label>
      )}
      {kind === 'existing-branch' && git && (
        <Field label="Branch">
          {() => (
            <BranchSelect branches={git.branches} value={draft.branch || git.branches[0]} onChange={(branch) => set({ branch })} />
          )}
        </Field>
      )}
      {kind === 'existing-worktree' && git && (
        <Field label="Worktree">
          {() => (
            <select
              className="select select--field"
              value={draft.worktreePath || git.freeWorktrees[0]?.path}
              onChange={(event) => set({ worktreePath: event.target.value })}
            >
              {git.freeWorktrees.map((worktree) => (
                <option key={worktree.path} value={worktree.path}>
                  {worktree.path} ({worktree.branch ?? 'detached'})
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    </fieldset>
  );
}

interface BranchSelectProps {
  branches: readonly string[];
  value: string | undefined;
  describedBy?: string | undefined;
  onChange(branch: string): void;
}

function BranchSelect({ branches, value, describedBy, onChange }: BranchSelectProps) {
  return (
    <select className="select select--field" value={value} aria-describedby={describedBy} onChange={(event) => onChange(event.target.value)}>
      {branches.map((branch) => (
        <option key={branch} value={branch}>
          {branch}
        </option>
      ))}
    </select>
  );
}
