import { useEffect } from 'react';
import type { Project } from '../../shared/entities';
import { PageHeading } from '../components/PageHeading';
import { routeHref } from '../routing';
import { useDrover, useDroverActions } from '../store/StoreContext';
import { markViewed } from '../workState/lastViewed';
import { ProjectWorkStatePanel } from '../workState/ProjectWorkStatePanel';

export function ProjectPage({ projectId }: { projectId: string }) {
  const project = useDrover((state) => state.projects.byId[projectId]);
  const projectsStatus = useDrover((state) => state.projects.status);

  if (project) return <ProjectDetails project={project} />;
  return (
    <div className="page">
      <header className="page-header">
        <PageHeading>{projectsStatus === 'loading' ? 'Loading project…' : 'Project not found'}</PageHeading>
        {projectsStatus !== 'loading' && (
          <p className="page-header__lede">
            This project is not registered with Drover (it may have been removed).{' '}
            <a href={routeHref({ page: 'projects' })}>Back to projects</a>
          </p>
        )}
      </header>
    </div>
  );
}

function ProjectDetails({ project }: { project: Project }) {
  const { trackWorkState } = useDroverActions();
  useEffect(() => {
    trackWorkState(project.id);
  }, [trackWorkState, project.id]);
  // Whatever changes while the page is open counts as seen (a reload never runs cleanups).
  const tasksById = useDrover((state) => state.workStates[project.id]?.tasksById);
  useEffect(() => {
    markViewed(project.id);
  }, [project.id, tasksById]);

  return (
    <div className="page page--wide">
      <header className="page-header">
        <PageHeading>{project.name}</PageHeading>
        <p className="page-header__path">{project.path}</p>
      </header>
      <ProjectWorkStatePanel projectId={project.id} />
    </div>
  );
}
