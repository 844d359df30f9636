import { useId, useMemo, useRef, useState } from 'react';
import type { Project } from '../../shared/entities/projects';
import { AgentsArea } from '../agents/AgentsArea';
import { AgentToolsSetting } from './AgentToolsSetting';
import { usePaletteCommands, type PaletteCommand } from '../components/commandRegistry';
import { PageHeading } from '../components/PageHeading';
import { routeHref } from '../routing';
import { useFocusRequest } from '../store/focusRequest';
import { useConnection, useProject, useProjects, useProjectSettings } from '../store/hooks';
import { usePhoneLayout } from '../store/phoneLayout';
import { useDroverActions } from '../store/StoreContext';
import { showWorkState, useProjectView, useWorkStateShown } from '../store/workspaceView';
import { shownWorkStateHeight, WorkStateSplitter } from '../workState/WorkStateSplitter';
import { useElementSize } from '../agents/useElementSize';
import { ProjectWorkStatePanel } from '../workState/ProjectWorkStatePanel';
import { ProjectGitHub } from '../forge/ProjectGitHub';
import { ProjectAutomations } from '../automations/ProjectAutomations';
import { ProjectWorktrees } from '../worktrees/ProjectWorktrees';
import { machineOfPage } from '../transport/machinePage';

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
  const workStateShown = useWorkStateShown(project.id);
  const workspaceRef = useRef<HTMLFieldSetElement>(null);
  const workspaceHeight = useElementSize(workspaceRef).height;
  const workStateHeight = shownWorkStateHeight(useProjectView(project.id).workStateHeight, workspaceHeight);
  const phone = usePhoneLayout();
  const muted = useProjectSettings(project.id).settings?.notificationsMuted ?? false;
  const { updateProjectSettings } = useDroverActions();
  const sidePanelId = useId();
  const [notice, setNotice] = useState<string | null>(null);
  useFocusRequest((target) => {
    if (target.kind !== 'project' || target.projectId !== project.id) return false;
    setNotice(target.notice);
    return true;
  });
  const online = useConnection() === 'open';

  const commands = useMemo<PaletteCommand[]>(
    () => [
      {
        id: 'view:work-state',
        group: 'View',
        label: workStateShown ? 'Hide the work state panel' : 'Show the work state panel',
        keywords: ['tasks', 'toggle'],
        run: () => showWorkState(project.id, !workStateShown),
      },
      {
        id: 'project:mute',
        group: 'Project',
        label: muted ? `Unmute notifications for ${project.name}` : `Mute notifications for ${project.name}`,
        run: () => updateProjectSettings(project.id, { notificationsMuted: !muted }),
      },
    ],
    [workStateShown, muted, project.id, project.name, updateProjectSettings],
  );
  usePaletteCommands(commands);

  const machine = machineOfPage();
  return (
    <div className="workspace">
      <header className="workspace__header">
        <PageHeading>{project.name}</PageHeading>
        <p className="page-header__path" title={project.path}>
          {machine ? `${machine}:${project.path}` : project.path}
        </p>
        <span className="workspace__spacer" />
        <AgentToolsSetting projectId={project.id} projectName={project.name} />
        <ProjectWorktrees projectId={project.id} />
        <ProjectGitHub projectId={project.id} />
        <ProjectAutomations projectId={project.id} />
        <button
          type="button"
          className="button button--ghost workspace__toggle"
          aria-expanded={workStateShown}
          aria-controls={sidePanelId}
          onClick={() => showWorkState(project.id, !workStateShown)}
        >
          {workStateShown ? 'Hide work state' : 'Show work state'}
        </button>
      </header>
      {notice && (
        <div className="workspace__notice">
          <p role="status">{notice}</p>
          <button type="button" className="button button--ghost button--compact" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}
      {/* Not connected to the host, nothing acts: every control of the agents and tasks is disabled until it is back. */}
      <fieldset ref={workspaceRef} className="workspace__body" disabled={!online}>
        <AgentsArea projectId={project.id} />
        {workStateShown && !phone && <WorkStateSplitter projectId={project.id} panelId={sidePanelId} height={workStateHeight} workspaceHeight={workspaceHeight} />}
        <div
          id={sidePanelId}
          className={phone ? 'workspace__side workspace__side--sheet' : 'workspace__side'}
          style={phone ? undefined : { height: workStateHeight }}
          hidden={!workStateShown}
        >
          <ProjectWorkStatePanel projectId={project.id} />
        </div>
      </fieldset>
    </div>
  );
}
