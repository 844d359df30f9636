import { useEffect, useMemo, useState } from 'react';
import { openMachinePage, runsInDesktopApp } from './bridge';
import { AttentionCenter } from './attention/AttentionCenter';
import { usePaletteCommands, type PaletteCommand } from './components/commandRegistry';
import { ConnectionBanner } from './components/ConnectionBanner';
import { StatusBar } from './components/StatusBar';
import { useAppShortcut } from './components/useAppShortcut';
import { useThemeSetting } from './components/useThemeSetting';
import { CommandPalette } from './palette/CommandPalette';
import { navigate, routeHref, useRoute, type Route } from './routing';
import { goTo } from './store/focusRequest';
import { machineOfPage } from './transport/machinePage';
import { useProject, useProjects } from './store/hooks';
import type { DroverState } from './store/droverStore';
import { machineLabel, useOtherMachines } from './store/otherMachines';
import { useQueueAcrossMachines } from './attention/queueAcrossMachines';
import { ProjectPage } from './views/ProjectPage';
import { ProjectsView } from './views/ProjectsView';
import { SettingsPage } from './views/SettingsPage';
import { TaskToasts } from './workState/toasts/TaskToasts';

export function App() {
  const route = useRoute();
  const projectName = useProject(route.page === 'project' ? route.projectId : null)?.name ?? null;
  const waiting = useQueueAcrossMachines().entries.length;
  /**
   * Each opening of the palette by number, null while it is closed. Escape closes its <dialog> at
   * once but fires `close` a task later: a palette opened again in between is another one, which
   * that late `close` must not shut.
   */
  const [palette, setPalette] = useState<number | null>(null);
  const openPalette = () => setPalette((opened) => (opened ?? 0) + 1);
  useRouteFocus(route);
  useThemeSetting();

  useEffect(() => {
    // The count reaches the tab strip and the taskbar, wherever the window is; the machine tells its windows apart.
    const machine = machineOfPage();
    document.title = `${waiting > 0 ? `(${waiting}) ` : ''}${projectName ? `${projectName} — ` : ''}Drover${machine ? ` on ${machine}` : ''}`;
  }, [projectName, waiting]);

  useAppShortcut('openPalette', openPalette);
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
          onClick={openPalette}
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
      {palette !== null && <CommandPalette key={palette} onClose={() => setPalette((shown) => (shown === palette ? null : shown))} />}
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

/** A link from another page names what to open (`#/project/ID?task=…`): go to it once, then drop it from the address. */
function useRouteFocus(route: Route): void {
  const projectId = route.page === 'project' ? route.projectId : null;
  const focus = route.page === 'project' ? route.focus : undefined;
  const agentId = focus && 'agentId' in focus ? focus.agentId : null;
  const taskId = focus && 'taskId' in focus ? focus.taskId : null;
  useEffect(() => {
    if (!projectId) return;
    if (agentId) goTo({ kind: 'agent', projectId, agentId });
    else if (taskId) goTo({ kind: 'task', projectId, taskId });
  }, [projectId, agentId, taskId]);
}

function projectsChanged(state: DroverState, previous: DroverState): boolean {
  return state.projects !== previous.projects;
}

/** Going to each project of the other machines this page follows: their pages open on it. */
function useOtherProjectCommands(): PaletteCommand[] {
  const followed = useOtherMachines(projectsChanged);
  return useMemo(
    () =>
      followed.flatMap(({ other, state }) =>
        Object.values(state.projects.byId)
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((project) => ({
            id: `app:project:${other.name ?? ''}:${project.id}`,
            group: 'Projects',
            label: `Go to ${project.name} on ${machineLabel(other.name)}`,
            keywords: [project.path, 'open', 'project', 'machine'],
            run: () => openMachinePage(other.name, { page: 'project', projectId: project.id }),
          })),
      ),
    [followed],
  );
}

/** What the palette offers on every page: going to a project or the list, adding a project, settings. */
function useAppCommands(): void {
  const projects = useProjects().byId;
  const otherProjects = useOtherProjectCommands();
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
      ...otherProjects,
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
    [projects, otherProjects],
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
      {/* A desktop window of another machine sits beside this machine's own window. */}
      {!runsInDesktopApp() && (
        <a className="title-bar__link" href="/">
          This machine
        </a>
      )}
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
