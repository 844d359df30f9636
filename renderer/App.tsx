import { useEffect } from 'react';
import { ConnectionBanner } from './components/ConnectionBanner';
import { StatusBar } from './components/StatusBar';
import { routeHref, useRoute, type Route } from './routing';
import { useProject } from './store/hooks';
import { ProjectPage } from './views/ProjectPage';
import { ProjectsView } from './views/ProjectsView';
import { SettingsPage } from './views/SettingsPage';
import { TaskToasts } from './workState/toasts/TaskToasts';

export function App() {
  const route = useRoute();
  const projectName = useProject(route.page === 'project' ? route.projectId : null)?.name ?? null;

  useEffect(() => {
    document.title = projectName ? `${projectName} — Drover` : 'Drover';
  }, [projectName]);

  return (
    <div className="app">
      <header className="title-bar">
        <span className="title-bar__brand">Drover</span>
        <Breadcrumb route={route} projectName={projectName} />
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
