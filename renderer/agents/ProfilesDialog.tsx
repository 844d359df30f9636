import { useEffect, useState } from 'react';
import type { AgentProfile } from '../../shared/entities/profiles';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { useProfiles } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { draftFromProfile, EMPTY_DRAFT, type ProfileDraft } from './profileDraft';
import { ProfileForm } from './ProfileForm';

type Editing = { draft: ProfileDraft; isNew: boolean; title: string };

function copyOf(profile: AgentProfile): Editing {
  const draft = draftFromProfile(profile);
  return { draft: { ...draft, id: `${profile.id}-custom`.slice(0, 40), name: `${profile.name} (custom)` }, isNew: true, title: `New profile from ${profile.name}` };
}

/** The agent profiles: built-ins to copy, custom ones to add, edit and delete. */
export function ProfilesDialog({ onClose }: { onClose(): void }) {
  const { reloadAgentProfiles, deleteAgentProfile } = useDroverActions();
  const profiles = useProfiles();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<AgentProfile | null>(null);

  useEffect(() => {
    void reloadAgentProfiles();
  }, [reloadAgentProfiles]);

  /** Built-in profiles can only be copied; custom ones edited and deleted. */
  const rowActions = (profile: AgentProfile): { label: string; danger?: boolean; run(): void }[] =>
    profile.builtIn
      ? [{ label: 'Copy', run: () => setEditing(copyOf(profile)) }]
      : [
          { label: 'Edit', run: () => setEditing({ draft: draftFromProfile(profile), isNew: false, title: `Edit ${profile.name}` }) },
          { label: 'Delete', danger: true, run: () => setDeleting(profile) },
        ];

  return (
    <ModalDialog title={editing?.title ?? 'Agent profiles'} className="profiles-dialog" onClose={onClose}>
      {editing ? (
        <ProfileForm key={editing.title} initial={editing.draft} isNew={editing.isNew} onDone={() => setEditing(null)} />
      ) : (
        <>
          <div className="profiles-dialog__bar">
            <p className="field-hint">A profile says how to launch an agent CLI and how to tell from its screen whether it works or waits.</p>
            <button type="button" className="button button--primary" onClick={() => setEditing({ draft: EMPTY_DRAFT, isNew: true, title: 'New profile' })}>
              New profile
            </button>
          </div>
          <FormError message={profiles.error && `Could not load the profiles: ${profiles.error}`} />
          <ul className="profile-list" aria-label="Profiles">
            {profiles.list.map((profile) => (
              <li key={profile.id} className="profile-list__row">
                <div className="profile-list__main">
                  <span className="profile-list__name">
                    {profile.name}
                    <span className="profile-list__kind">{profile.builtIn ? 'Built-in' : 'Custom'}</span>
                  </span>
                  <code className="profile-list__command">{[profile.command, ...profile.args].join(' ')}</code>
                  {profile.unavailableReason && (
                    <span className="field-warning profile-list__problem" title={profile.unavailableReason}>
                      {profile.unavailableReason}
                    </span>
                  )}
                </div>
                <span className="profile-list__actions">
                  {rowActions(profile).map(({ label, danger, run }) => (
                    <button
                      key={label}
                      type="button"
                      className={danger ? 'button button--ghost button--row button--ghost-danger' : 'button button--ghost button--row'}
                      aria-label={`${label} ${profile.name}`}
                      onClick={run}
                    >
                      {label}
                    </button>
                  ))}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete profile"
          onConfirm={() => deleteAgentProfile(deleting.id)}
          onClose={() => setDeleting(null)}
        >
          <p>Agents using this profile keep their name and role but cannot start until you pick another profile.</p>
        </ConfirmDialog>
      )}
    </ModalDialog>
  );
}
