import { useEffect, useMemo, useState } from 'react';
import { AttentionCenter } from './attention/AttentionCenter';
import { usePaletteCommands, type PaletteCommand } from './components/commandRegistry';
import { ConnectionBanner } from './components/ConnectionBanner';
import { StatusBar } from './components/StatusBar';
import { useAppShortcut } from './components/useAppShortcut';
import { CommandPalette } from './palette/CommandPalette';
import { navigate, routeHref, useRoute, type Route } from './routing';
import { goTo } from './store/focusRequest';
import { machineOfPage } from './transport/machinePage';
import { useAttentionQueue, useProject, useProjects } from './store/hooks';
import { ProjectPage } from './views/ProjectPage';
import { ProjectsView } from './views/ProjectsView';
import { SettingsPage } from './views/SettingsPage';
import { TaskToasts } from './workState/toasts/TaskToasts';

export function App() {
  const route = useRoute();
  const projectName = useProject(route.page === 'project' ? route.projectId : null)?.name ?? null;
  const waiting = useAttentionQueue().length;
  const [paletteOpen, setPaletteOpen] = useState(false);

  useEffect(() => {
    // The count reaches the tab strip and the taskbar, wherever the window is.
    document.title = `${waiting > 0 ? `(${waiting}) ` : ''}${projectName ? `${projectName} — ` : ''}Drover`;
  }, [projectName, waiting]);

  useAppShortcut('openPalette', () => setPaletteOpen(true));
  useAppCommands();

  return (
    <div className="app">
      <header className="title-bar">
        <span className="title-bar__brand">Drover</span>
        <MachineBadge />
        <Breadcrumb route={route} projectName={projectName} />
        <span className="title-bar__spacer" />
        <AttentionCenter />
        <button
          type="button"
          className="button button--ghost title-bar__button"
          aria-keyshortcuts="Control+K Control+Shift+P"
          title="Command palette (Ctrl+K, Ctrl+Shift+P)"
          onClick={() => setPaletteOpen(true)}
        >
          Commands
        </button>
        <a className="title-bar__link" href={routeHref({ page: 'settings' })} aria-current={route.page === 'settings' ? 'page' : undefined}>
          Settings
        </a>
      </header>
      <ConnectionBanner />
      <main className="content">
        <Page route={route} />
      </main>
      <StatusBar />
      <TaskToasts />
      {paletteOpen && (
        <CommandPalette onClose={() => setPaletteOpen(false)} />
      )}
    </div>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'project':
      return <ProjectPage key={route.projectId} projectId={route.projectId} />;
    case 'settings':
      return <SettingsPage />;
    case 'projects':
      return <ProjectsView />;
  }
}

/** What the palette offers on every page: going to a project or the list, adding a project, settings. */
function useAppCommands(): void {
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
      {
        id: 'app:settings',
        group: 'App',
        label: 'Settings…',
        keywords: ['notifications', 'mute', 'sound', 'preferences', 'updates', 'command line'],
        run: () => navigate({ page: 'settings' }),
      },
      {
        id: 'app:command-line-tool',
        group: 'App',
        label: 'Install command line tool…',
        keywords: ['drover', 'path', 'shell', 'terminal', 'cli'],
        run: () => goTo({ kind: 'command-line-tool' }),
      },
    ],
    [projects],
  );
  usePaletteCommands(commands);
}

/** On another machine's page, which machine it is, and the way back to this one. */
function MachineBadge() {
  const machine = machineOfPage();
  if (!machine) return null;
  return (
    <span className="title-bar__machine">
      <span className="title-bar__machine-name">on {machine}</span>
      <a className="title-bar__link" href="/">
        This machine
      </a>
    </span>
  );
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
            <li aria-current="page">{route.page === 'settings' ? 'Settings' : (projectName ?? route.projectId)}</li>
          </>
        )}
      </ol>
    </nav>
  );
}
