import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { ForgeIssue } from '../../shared/forge';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { errorMessage } from '../format/errorMessage';
import { goTo } from '../store/focusRequest';
import { defaultProfile } from '../format/defaultProfile';
import { useAgents, useProfiles, useWorkState } from '../store/hooks';
import { useBridge, useDroverActions } from '../store/StoreContext';

interface Query {
  search: string;
  label: string;
  mine: boolean;
}

/** The project's open issues on GitHub; each can become an agent in its own worktree whose first prompt is the issue. */
export function IssuesDialog({ projectId, onClose }: { projectId: string; onClose(): void }) {
  const bridge = useBridge();
  const { trackAgentProfiles } = useDroverActions();
  const profiles = useProfiles().list;
  const agentsById = useWorkState(projectId, 'agentsById');
  const agents = useAgents(projectId);
  const [query, setQuery] = useState<Query>({ search: '', label: '', mine: false });
  const [found, setFound] = useState<{ issues: ForgeIssue[]; labels: string[] } | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [profileId, setProfileId] = useState<string | null>(null);
  const starting = usePendingAction();
  const searchId = useId();
  const labelId = useId();
  const profileFieldId = useId();

  useEffect(trackAgentProfiles, [trackAgentProfiles]);
  // The Add agent dialog's default: the profile of the project's last added agent, if it can start.
  const chosenProfile = profileId ?? defaultProfile(profiles, agents).profileId;

  const load = useCallback(
    (wanted: Query, isCurrent: () => boolean = () => true) =>
      bridge
        .call('listForgeIssues', { projectId, ...(wanted.search.trim() ? { search: wanted.search.trim() } : {}), ...(wanted.label ? { labels: [wanted.label] } : {}), ...(wanted.mine ? { assignedToMe: true } : {}) })
        .then(
          (answer) => {
            if (!isCurrent()) return;
            setFound(answer);
            setListError(null);
          },
          (failure: unknown) => isCurrent() && setListError(errorMessage(failure)),
        ),
    [bridge, projectId],
  );
  useEffect(() => {
    let current = true;
    void load({ search: '', label: '', mine: false }, () => current);
    return () => {
      current = false;
    };
  }, [load]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void load(query);
  };
  const start = (issue: ForgeIssue) =>
    void starting.run(async () => {
      const agent = await bridge.call('startAgentOnIssue', { projectId, issueNumber: issue.number, profileId: chosenProfile });
      onClose();
      goTo({ kind: 'agent', projectId, agentId: agent.id });
    }, `Could not start an agent on #${issue.number}: `);

  return (
    <ModalDialog title="Issues" className="issues-dialog" onClose={onClose}>
      <form className="issues-dialog__filters" role="search" onSubmit={submit}>
        <label htmlFor={searchId} className="field-label">
          Search issues
        </label>
        <input id={searchId} className="text-input" type="search" value={query.search} onChange={(event) => setQuery({ ...query, search: event.target.value })} />
        <label htmlFor={labelId} className="field-label">
          Label
        </label>
        <select id={labelId} className="text-input" value={query.label} onChange={(event) => setQuery({ ...query, label: event.target.value })}>
          <option value="">Any label</option>
          {(found?.labels ?? []).map((label) => (
            <option key={label} value={label}>
              {label}
            </option>
          ))}
        </select>
        <label className="workspace-fields__choice">
          <input type="checkbox" checked={query.mine} onChange={(event) => setQuery({ ...query, mine: event.target.checked })} />
          <span>Assigned to me</span>
        </label>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <div className="issues-dialog__profile">
        <label htmlFor={profileFieldId} className="field-label">
          Profile for new agents
        </label>
        <select id={profileFieldId} className="text-input" value={chosenProfile} onChange={(event) => setProfileId(event.target.value)}>
          {profiles.map((profile) => (
            <option key={profile.id} value={profile.id}>
              {profile.name}
              {profile.unavailableReason ? ' (not installed)' : ''}
            </option>
          ))}
        </select>
      </div>
      <FormError message={listError && `Could not list the issues: ${listError}`} />
      <FormError message={starting.error} />
      {found === null && !listError && <p role="status">Asking GitHub…</p>}
      {found && found.issues.length === 0 && <p>No open issues match.</p>}
      {found && found.issues.length > 0 && (
        <ul className="issues-dialog__list" aria-label="Open issues">
          {found.issues.map((issue) => {
            const agent = issue.agentId ? agentsById[issue.agentId] : undefined;
            return (
              <li key={issue.number} className="issues-dialog__issue" aria-label={`#${issue.number} ${issue.title}`}>
                <span className="issues-dialog__title">
                  <a href={issue.url} target="_blank" rel="noreferrer">
                    #{issue.number}
                  </a>{' '}
                  {issue.title}
                </span>
                <span className="field-hint">{[...issue.labels, ...issue.assignees.map((login) => `@${login}`)].join(' · ')}</span>
                {agent ? (
                  <button type="button" className="button button--ghost" onClick={() => {
                      onClose();
                      goTo({ kind: 'agent', projectId, agentId: agent.id });
                    }}>
                    Go to {agent.name}
                  </button>
                ) : (
                  <button type="button" className="button" disabled={starting.pending || !chosenProfile} onClick={() => start(issue)}>
                    Start an agent on #{issue.number}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </ModalDialog>
  );
}
