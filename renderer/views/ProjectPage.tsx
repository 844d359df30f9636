import { useEffect, useId } from 'react';
import type { Project } from '../../shared/entities';
import { AgentsArea } from '../agents/AgentsArea';
import { PageHeading } from '../components/PageHeading';
import { useStoredFlag } from '../components/useStoredFlag';
import { routeHref } from '../routing';
import { useProject, useProjects, useWorkState } from '../store/hooks';
import { useDroverActions } from '../store/StoreContext';
import { markViewed } from '../workState/lastViewed';
import { ProjectWorkStatePanel } from '../workState/ProjectWorkStatePanel';
import { ProjectWorktrees } from '../worktrees/ProjectWorktrees';

export function ProjectPage({ projectId }: { projectId: string }) {
  const project = useProject(projectId);
  const projectsStatus = useProjects().status;

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
  const tasksById = useWorkState(project.id, 'tasksById');
  const [workStateShown, setWorkStateShown] = useStoredFlag('drover.workStateShown', true);
  const sidePanelId = useId();
  useEffect(() => {
    markViewed(project.id);
  }, [project.id, tasksById]);

  return (
    <div className="workspace">
      <header className="workspace__header">
        <PageHeading>{project.name}</PageHeading>
        <p className="page-header__path" title={project.path}>
          {project.path}
        </p>
        <span className="workspace__spacer" />
        <ProjectWorktrees projectId={project.id} />
        <button
          type="button"
          className="button button--ghost"
          aria-expanded={workStateShown}
          aria-controls={sidePanelId}
          onClick={() => setWorkStateShown(!workStateShown)}
        >
          {workStateShown ? 'Hide work state' : 'Show work state'}
        </button>
      </header>
      <div className="workspace__body">
        <AgentsArea projectId={project.id} />
        <div id={sidePanelId} className="workspace__side" hidden={!workStateShown}>
          <ProjectWorkStatePanel projectId={project.id} />
        </div>
      </div>
    </div>
  );
}
