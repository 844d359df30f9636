import { useEffect, useId, useRef, useState } from 'react';
import { describeCommandLineTool } from '../../shared/commandLineTool';
import { runsInDesktopApp } from '../bridge';
import { NotificationSettings } from '../attention/NotificationSettings';
import type { ThemeChoice } from '../../shared/appSettings';
import { EditorSetting } from './EditorSetting';
import type { Status } from '../../shared/entities/projects';
import { FormError } from '../components/FormError';
import { PageHeading } from '../components/PageHeading';
import { usePendingAction } from '../components/usePendingAction';
import { errorMessage } from '../format/errorMessage';
import { useFocusRequest } from '../store/focusRequest';
import { useAppSettings, useConnection } from '../store/hooks';
import { useBridge, useDroverActions } from '../store/StoreContext';

/**
 * App-wide settings: the theme, notifications, updates (in the desktop app: only it can update itself), the editor, the `drover`
 * command, and where the data lives. Controls stay
 * enabled while their request runs (a disabled control drops keyboard focus); a second press
 * meanwhile is ignored.
 */
export function SettingsPage() {
  return (
    <div className="page">
      <header className="page-header">
        <PageHeading>Settings</PageHeading>
        <p className="page-header__lede">
          How Drover looks, when it tells you what needs you, how it updates itself, your editor, the drover command, and where Drover keeps its data.
        </p>
      </header>
      <AppearanceSection />
      <SettingsSection title="Notifications">
        <NotificationSettings />
      </SettingsSection>
      {runsInDesktopApp() && <UpdatesSection />}
      <TerminalHistorySection />
      <SettingsSection title="Editor">
        <EditorSetting />
      </SettingsSection>
      <CommandLineSection />
      <DataSection />
    </div>
  );
}

function SettingsSection({ title, children }: { title: string; children: React.ReactNode }) {
  const headingId = useId();
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="panel__title">
        {title}
      </h2>
      <div className="settings-section">{children}</div>
    </section>
  );
}

const THEME_LABELS: ReadonlyArray<readonly [ThemeChoice, string]> = [
  ['dark', 'Dark'],
  ['light', 'Light'],
  ['system', 'System'],
];

/** The theme, kept by the host: every window and page of this host shows the same one. */
function AppearanceSection() {
  const { updateAppSettings } = useDroverActions();
  const { settings } = useAppSettings();
  const { pending, error, run } = usePendingAction();
  // A radio shows the person's click at once; the stored value takes over when the reply lands.
  const [requested, setRequested] = useState<ThemeChoice | null>(null);
  const choose = (theme: ThemeChoice) => {
    setRequested(theme);
    void run(() => updateAppSettings({ theme }), 'Could not save the theme: ').finally(() => setRequested(null));
  };
  const legendId = useId();
  const hintId = useId();

  return (
    <SettingsSection title="Appearance">
      <fieldset className="settings-choices" aria-labelledby={legendId} aria-describedby={hintId} aria-busy={pending}>
        <legend id={legendId} className="field-label">
          Theme
        </legend>
        {THEME_LABELS.map(([theme, label]) => (
          <label key={theme} className="settings-check">
            <input
              type="radio"
              name="theme"
              value={theme}
              checked={(requested ?? settings?.theme) === theme}
              disabled={settings === null}
              onChange={() => choose(theme)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <p id={hintId} className="field-hint">
        System follows your system&apos;s light or dark mode as it changes. Terminals and diffs follow the theme too; every window
        and browser page of this Drover host shows the same one.
      </p>
      <FormError message={error} />
    </SettingsSection>
  );
}

function UpdatesSection() {
  const { trackAppSettings, updateAppSettings } = useDroverActions();
  const { settings, error: loadError } = useAppSettings();
  const { pending, error, run } = usePendingAction();
  const hintId = useId();
  useEffect(trackAppSettings, [trackAppSettings]);

  return (
    <SettingsSection title="Updates">
      <label className="settings-check">
        <input
          type="checkbox"
          checked={settings?.checkForUpdates ?? false}
          disabled={settings === null}
          aria-busy={pending}
          aria-describedby={hintId}
          onChange={(event) => {
            const checkForUpdates = event.target.checked;
            void run(() => updateAppSettings({ checkForUpdates }), 'Could not save the setting: ');
          }}
        />
        Check for updates automatically
      </label>
      <p id={hintId} className="field-hint">
        The desktop AppImage looks for a new release on GitHub every few hours, downloads it in the background and asks
        before restarting (Drover › Check for updates… in its menu looks right away). The .deb is updated by your
        package manager.
      </p>
      <FormError message={error ?? (loadError ? `Could not load the settings: ${loadError}` : null)} />
    </SettingsSection>
  );
}

/**
 * How much of each agent terminal the host keeps: what every window shows above the screen, after a
 * reload or a reconnect too. Saved when the field is left (or Enter), checked like every input.
 */
function TerminalHistorySection() {
  const { trackAppSettings, updateAppSettings } = useDroverActions();
  const { settings } = useAppSettings();
  const { pending, error, run } = usePendingAction();
  const [draft, setDraft] = useState<string | null>(null);
  const hintId = useId();
  const inputId = useId();
  useEffect(trackAppSettings, [trackAppSettings]);
  const saved = settings?.terminalScrollbackLines;
  const save = () => {
    if (draft === null) return;
    const lines = Number(draft);
    void run(async () => {
      await updateAppSettings({ terminalScrollbackLines: lines });
      setDraft(null);
    }, 'Could not save the terminal history: ');
  };

  return (
    <SettingsSection title="Terminal history">
      <label className="field" htmlFor={inputId}>
        <span className="field-label">Lines kept per agent terminal</span>
        <input
          id={inputId}
          className="text-input settings-number"
          type="number"
          inputMode="numeric"
          min={100}
          max={10_000}
          step={100}
          value={draft ?? (saved === undefined ? '' : String(saved))}
          disabled={settings === null}
          aria-busy={pending}
          aria-describedby={hintId}
          onChange={(event) => setDraft(event.target.value)}
          onBlur={save}
          onKeyDown={(event) => {
            if (event.key === 'Enter') save();
          }}
        />
      </label>
      <p id={hintId} className="field-hint">
        The Drover host keeps each agent&apos;s terminal (its screen and this many lines above it) while the agent runs and
        after; every window and browser page shows exactly that, after a reload or a reconnect too. From 100 to 10,000 lines.
      </p>
      <FormError message={error} />
    </SettingsSection>
  );
}

function CommandLineSection() {
  const { installCommandLineTool } = useDroverActions();
  const { pending, error, run } = usePendingAction();
  const [outcome, setOutcome] = useState<string[]>([]);
  const installRef = useRef<HTMLButtonElement>(null);
  useFocusRequest((target) => {
    if (target.kind !== 'command-line-tool' || !installRef.current) return false;
    installRef.current.focus();
    return true;
  });

  return (
    <SettingsSection title="Command line">
      <p className="field-hint">
        Puts the drover command on your PATH: a small launcher in ~/.local/bin that runs it with this app&apos;s own runtime.
      </p>
      <div>
        <button
          ref={installRef}
          type="button"
          className="button"
          aria-busy={pending}
          onClick={() => {
            setOutcome([]);
            void run(async () => setOutcome(describeCommandLineTool(await installCommandLineTool())), 'Could not install the command line tool: ');
          }}
        >
          Install command line tool
        </button>
      </div>
      <div role="status" className="settings-outcome">
        {outcome.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <FormError message={error} />
    </SettingsSection>
  );
}

function DataSection() {
  const bridge = useBridge();
  const connection = useConnection();
  const [status, setStatus] = useState<Status | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (connection !== 'open') return;
    let current = true;
    bridge.call('getStatus', {}).then(
      (next) => current && setStatus(next),
      (failure: unknown) => current && setError(errorMessage(failure)),
    );
    return () => {
      current = false;
    };
  }, [bridge, connection]);

  return (
    <SettingsSection title="Data">
      {status ? (
        <dl className="settings-facts">
          <dt>Data folder</dt>
          <dd className="settings-facts__path">{status.dataDir}</dd>
          <dt>Version</dt>
          <dd>Drover {status.version}</dd>
        </dl>
      ) : (
        !error && <p className="field-hint">Loading…</p>
      )}
      <FormError message={error ? `Could not read the status: ${error}` : null} />
    </SettingsSection>
  );
}
