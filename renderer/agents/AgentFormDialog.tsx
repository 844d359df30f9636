import { useEffect, useState, type FormEvent } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { AgentProfile } from '../../shared/entities/profiles';
import { Field } from '../components/Field';
import { FormActions } from '../components/FormActions';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { useAgents, useProfiles } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { EMPTY_WORKSPACE_DRAFT, useProjectGit, workspaceRequest, WorkspaceFields } from '../worktrees/WorkspaceFields';
import { agentNameProblem } from './agentName';
import { defaultProfile } from '../format/defaultProfile';

interface AgentFormDialogProps {
  projectId: string;
  /** Edits this agent; without it the dialog adds one. */
  agent?: Agent;
  /** Names of the project's other agents (names are unique in a project). */
  takenNames: readonly string[];
  onClose(): void;
}

function profileOptionText(profile: AgentProfile): string {
  return profile.unavailableReason ? `${profile.name} (unavailable)` : profile.name;
}

/** Add an agent, or change an existing one's name, role and profile. */
export function AgentFormDialog({ projectId, agent, takenNames, onClose }: AgentFormDialogProps) {
  const { createAgent, updateAgent, reloadAgentProfiles } = useDroverActions();
  const profiles = useProfiles().list;
  const agents = useAgents(projectId);
  const [name, setName] = useState(agent?.name ?? '');
  const [role, setRole] = useState(agent?.role ?? '');
  const [profileId, setProfileId] = useState(agent?.profileId ?? '');
  const [showProblems, setShowProblems] = useState(false);
  const [workspace, setWorkspace] = useState(EMPTY_WORKSPACE_DRAFT);
  const { git, error: gitError } = useProjectGit(projectId);
  const save = usePendingAction({ clearErrorOnStart: true });

  useEffect(() => {
    void reloadAgentProfiles();
  }, [reloadAgentProfiles]);
  const preset = defaultProfile(profiles, agents);
  const chosenProfileId = profileId || preset.profileId;
  const chosen = profiles.find((profile) => profile.id === chosenProfileId);
  const profileNote = [profileId ? null : preset.fallbackReason, chosen?.unavailableReason].filter(Boolean).join(' ');
  const nameProblem = agentNameProblem(name, takenNames);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setShowProblems(true);
    if (nameProblem || !chosenProfileId) return;
    const fields = { name: name.trim(), role: role.trim(), profileId: chosenProfileId };
    await save.run(async () => {
      if (agent) await updateAgent({ agentId: agent.id, ...fields });
      else await createAgent({ projectId, ...fields, workspace: workspaceRequest(workspace, git) });
      onClose();
    });
  }

  const nameInvalid = showProblems && nameProblem !== null;
  return (
    <ModalDialog title={agent ? `Edit ${agent.name}` : 'Add agent'} className="agent-form-dialog" onClose={onClose}>
      <form className="form-grid" noValidate onSubmit={(event) => void submit(event)}>
        <Field label="Name" note={nameInvalid ? { text: nameProblem, kind: 'error' } : null}>
          {(describedBy) => (
            <input
              className="text-input"
              value={name}
              autoFocus
              maxLength={60}
              placeholder="e.g. backend"
              aria-invalid={nameInvalid}
              aria-describedby={describedBy}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </Field>
        <Field label="Role">
          {() => (
            <textarea
              className="text-input text-area"
              value={role}
              rows={3}
              maxLength={4000}
              placeholder="What this agent works on, e.g. “API and database migrations”"
              onChange={(event) => setRole(event.target.value)}
            />
          )}
        </Field>
        <Field label="Profile" note={profileNote ? { text: profileNote, kind: 'warning' } : null}>
          {(describedBy) => (
            <select
              className="select select--field"
              value={chosenProfileId}
              aria-describedby={describedBy}
              onChange={(event) => setProfileId(event.target.value)}
            >
              {profiles.map((profile) => (
                <option key={profile.id} value={profile.id}>
                  {profileOptionText(profile)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {!agent && <WorkspaceFields git={git} gitError={gitError} draft={workspace} onChange={setWorkspace} />}
        <FormError message={save.error} />
        <FormActions
          submitLabel={agent ? 'Save' : 'Add agent'}
          // A new agent waits for the repository's answer: it decides where the agent works.
          pending={save.pending || (!agent && git === null && gitError === null)}
          onCancel={onClose}
        />
      </form>
    </ModalDialog>
  );
}
