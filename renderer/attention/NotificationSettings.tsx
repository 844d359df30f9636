import { useId, useMemo, useState } from 'react';
import { FormError } from '../components/FormError';
import { usePendingAction } from '../components/usePendingAction';
import { useStoredFlag } from '../components/useStoredFlag';
import { useProjects, useSettingsById } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { systemNotifier, type NotificationPermissionState } from '../transport/systemNotifications';
import { NOTIFICATION_SOUND_KEY } from './notificationSound';

const PERMISSION_TEXT: Readonly<Record<NotificationPermissionState, string>> = {
  granted: 'This browser shows Drover’s notifications.',
  default: 'This browser asks before it shows notifications.',
  denied: 'Notifications are blocked for this page: allow them in the browser’s site settings.',
  unsupported: 'This browser cannot show notifications here (they need http://127.0.0.1, an SSH tunnel to it, or https).',
};

/** Lets a browser show notifications; nothing to ask in the desktop app. */
export function NotificationPermission() {
  const notifier = systemNotifier();
  const [permission, setPermission] = useState(notifier.permission());
  if (notifier.kind === 'desktop') return <p className="field-hint">Drover shows desktop notifications.</p>;
  return (
    <div className="notification-permission">
      <p className="field-hint">{PERMISSION_TEXT[permission]}</p>
      {permission === 'default' && (
        <button type="button" className="button" onClick={() => void notifier.requestPermission().then(setPermission)}>
          Allow notifications
        </button>
      )}
    </div>
  );
}

/**
 * When Drover notifies: only when an agent starts waiting for an answer, hits a usage limit or
 * crashes, or a task fails, and only while that is out of view. The sound is this device's choice;
 * a project's mute holds for every window and device.
 */
export function NotificationSettings() {
  const [sound, setSound] = useStoredFlag(NOTIFICATION_SOUND_KEY, false);
  const projects = useProjects().byId;
  const settingsById = useSettingsById();
  const { updateProjectSettings } = useDroverActions();
  const muting = usePendingAction();
  // A checkbox shows the person's click at once; the stored value takes over when the reply lands.
  const [requestedMute, setRequestedMute] = useState<{ projectId: string; muted: boolean } | null>(null);
  const mute = (projectId: string, name: string, muted: boolean) => {
    setRequestedMute({ projectId, muted });
    void muting
      .run(() => updateProjectSettings(projectId, { notificationsMuted: muted }), `${name}: `)
      .finally(() => setRequestedMute(null));
  };
  const sorted = useMemo(() => Object.values(projects).sort((a, b) => a.name.localeCompare(b.name)), [projects]);
  const projectsId = useId();

  return (
    <div className="form-grid">
      <p className="field-hint">
        Drover notifies when an agent starts waiting for your answer, hits a usage limit or crashes, and when a task fails — only
        while it is out of view, never for each turn.
      </p>
      <NotificationPermission />
      <label className="check-field">
        <input type="checkbox" checked={sound} onChange={(event) => setSound(event.target.checked)} />
        Play the system sound with notifications
      </label>
      <fieldset className="check-group" aria-describedby={projectsId}>
        <legend>Mute projects</legend>
        <p id={projectsId} className="field-hint">
          A muted project’s items still show in Needs you.
        </p>
        {sorted.length === 0 && <p className="field-hint">No projects yet.</p>}
        {sorted.map((project) => (
          <label key={project.id} className="check-field">
            <input
              type="checkbox"
              checked={
                requestedMute?.projectId === project.id ? requestedMute.muted : (settingsById[project.id]?.notificationsMuted ?? false)
              }
              disabled={!settingsById[project.id] || muting.pending}
              onChange={(event) => mute(project.id, project.name, event.target.checked)}
            />
            Mute {project.name}
          </label>
        ))}
      </fieldset>
      <FormError message={muting.error} />
    </div>
  );
}
