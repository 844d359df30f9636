import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Agent, AgentProfile } from '../../shared/entities';
import { ModalDialog } from '../components/ModalDialog';
import { errorMessage } from '../store/errorMessage';
import { useDrover, useDroverActions } from '../store/StoreContext';
import { agentNameProblem } from './agentName';
import { FormError } from '../components/FormError';

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

function defaultProfileId(profiles: readonly AgentProfile[]): string {
  return (profiles.find((profile) => !profile.unavailableReason) ?? profiles[0])?.id ?? '';
}

/** Add an agent, or change an existing one's name, role and profile. */
export function AgentFormDialog({ projectId, agent, takenNames, onClose }: AgentFormDialogProps) {
  const { createAgent, updateAgent, reloadAgentProfiles } = useDroverActions();
  const profiles = useDrover((state) => state.profiles.list);
  const [name, setName] = useState(agent?.name ?? '');
  const [role, setRole] = useState(agent?.role ?? '');
  const [profileId, setProfileId] = useState(agent?.profileId ?? '');
  const [showProblems, setShowProblems] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const nameErrorId = useId();
  const profileHintId = useId();

  useEffect(() => {
    void reloadAgentProfiles();
  }, [reloadAgentProfiles]);
  const chosenProfileId = profileId || defaultProfileId(profiles);
  const chosen = profiles.find((profile) => profile.id === chosenProfileId);
  const nameProblem = agentNameProblem(name, takenNames);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setShowProblems(true);
    if (nameProblem || !chosenProfileId || saving) return;
    setSaving(true);
    setError(null);
    try {
      const fields = { name: name.trim(), role: role.trim(), profileId: chosenProfileId };
      if (agent) await updateAgent({ agentId: agent.id, ...fields });
      else await createAgent({ projectId, ...fields });
      onClose();
    } catch (failure) {
      setError(errorMessage(failure));
      setSaving(false);
    }
  }

  const nameInvalid = showProblems && nameProblem !== null;
  return (
    <ModalDialog title={agent ? `Edit ${agent.name}` : 'Add agent'} className="agent-form-dialog" onClose={onClose}>
      <form className="form-grid" noValidate onSubmit={(event) => void submit(event)}>
        <label className="field">
          <span className="field-label">Name</span>
          <input
            className="text-input"
            value={name}
            autoFocus
            maxLength={60}
            placeholder="e.g. backend"
            aria-invalid={nameInvalid}
            aria-describedby={nameInvalid ? nameErrorId : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          {nameInvalid && (
            <span id={nameErrorId} className="field-error">
              {nameProblem}
            </span>
          )}
        </label>
        <label className="field">
          <span className="field-label">Role</span>
          <textarea
            className="text-input text-area"
            value={role}
            rows={3}
            maxLength={4000}
            placeholder="What this agent works on, e.g. “API and database migrations”"
            onChange={(event) => setRole(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">Profile</span>
          <select
            className="select select--field"
            value={chosenProfileId}
            aria-describedby={chosen?.unavailableReason ? profileHintId : undefined}
            onChange={(event) => setProfileId(event.target.value)}
          >
            {profiles.map((profile) => (
              <option key={profile.id} value={profile.id}>
                {profileOptionText(profile)}
              </option>
            ))}
          </select>
          {chosen?.unavailableReason && (
            <span id={profileHintId} className="field-warning">
              {chosen.unavailableReason}
            </span>
          )}
        </label>
        <FormError message={error} />
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={saving}>
            {agent ? 'Save' : 'Add agent'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
