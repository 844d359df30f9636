import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { AttentionCenter } from './attention/AttentionCenter';
import { usePaletteCommands, type PaletteCommand } from './components/commandRegistry';
import { ConnectionBanner } from './components/ConnectionBanner';
import { StatusBar } from './components/StatusBar';
import { useAppShortcut } from './components/useAppShortcut';
import { navigate, routeHref, useRoute, type Route } from './routing';
import { goTo } from './store/focusRequest';
import { useAttentionQueue, useProject, useProjects } from './store/hooks';
import { ProjectPage } from './views/ProjectPage';
import { ProjectsView } from './views/ProjectsView';
import { SettingsDialog } from './views/SettingsDialog';
import { TaskToasts } from './workState/toasts/TaskToasts';

// cmdk is only needed once the palette opens.
const CommandPalette = lazy(() => import('./palette/CommandPalette').then((module) => ({ default: module.CommandPalette })));

type AppDialog = 'palette' | 'settings' | null;

export function App() {
  const route = useRoute();
  const projectName = useProject(route.page === 'project' ? route.projectId : null)?.name ?? null;
  const waiting = useAttentionQueue().length;
  const [dialog, setDialog] = useState<AppDialog>(null);

  useEffect(() => {
    // The count reaches the tab strip and the taskbar, wherever the window is.
    document.title = `${waiting > 0 ? `(${waiting}) ` : ''}${projectName ? `${projectName} — ` : ''}Drover`;
  }, [projectName, waiting]);

  useAppShortcut('openPalette', () => setDialog('palette'));
  useAppCommands(useCallback(() => setDialog('settings'), []));

  return (
    <div className="app">
      <header className="title-bar">
        <span className="title-bar__brand">Drover</span>
        <Breadcrumb route={route} projectName={projectName} />
        <span className="title-bar__spacer" />
        <AttentionCenter />
        <button
          type="button"
          className="button button--ghost title-bar__button"
          aria-keyshortcuts="Control+K Control+Shift+P"
          title="Command palette (Ctrl+K, Ctrl+Shift+P)"
          onClick={() => setDialog('palette')}
        >
          Commands
        </button>
        <button type="button" className="button button--ghost title-bar__button" onClick={() => setDialog('settings')}>
          Settings
        </button>
      </header>
      <ConnectionBanner />
      <main className="content">
        {route.page === 'project' ? (
          <ProjectPage key={route.projectId} projectId={route.projectId} />
        ) : (
          <ProjectsView />
        )}
      </main>
      <StatusBar />
      <TaskToasts />
      {dialog === 'palette' && (
        <Suspense fallback={null}>
          <CommandPalette onClose={() => setDialog(null)} />
        </Suspense>
      )}
      {dialog === 'settings' && <SettingsDialog onClose={() => setDialog(null)} />}
    </div>
  );
}

/** What the palette offers on every page: going to a project or the list, adding a project, settings. */
function useAppCommands(openSettings: () => void): void {
  const projects = useProjects().byId;
  const commands = useMemo<PaletteCommand[]>(
    () => [
      { id: 'app:projects', group: 'Projects', label: 'Go to the projects list', keywords: ['home'], run: () => navigate({ page: 'projects' }) },
      { id: 'app:add-project', group: 'Projects', label: 'Add project…', keywords: ['folder', 'new', 'register'], run: () => goTo({ kind: 'add-project' }) },
      ...Object.values(projects)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((project) => ({
          id: `app:project:${project.id}`,
          group: 'Projects',
          label: `Go to ${project.name}`,
          keywords: [project.path, 'open', 'project'],
          run: () => navigate({ page: 'project', projectId: project.id }),
        })),
      { id: 'app:settings', group: 'App', label: 'Settings…', keywords: ['notifications', 'mute', 'sound', 'preferences'], run: openSettings },
    ],
    [projects, openSettings],
  );
  usePaletteCommands(commands);
}

function Breadcrumb({ route, projectName }: { route: Route; projectName: string | null }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        {route.page === 'projects' ? (
          <li aria-current="page">Projects</li>
        ) : (
          <>
            <li>
              <a href={routeHref({ page: 'projects' })}>Projects</a>
            </li>
            <li aria-current="page">{projectName ?? route.projectId}</li>
          </>
        )}
      </ol>
    </nav>
  );
}
