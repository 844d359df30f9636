import { useEffect, useId, useRef, useState } from 'react';
import type { Project } from '../../shared/entities/projects';
import { ProjectAttentionBadge } from '../attention/ProjectAttentionBadge';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { routeHref } from '../routing';
import { useDroverActions } from '../store/StoreContext';
import { ProjectTaskBadges } from '../workState/ProjectTaskBadges';
import { RenameProjectForm } from './RenameProjectForm';

interface ProjectRowProps {
  project: Project;
  onRemoved(): void;
}

export function ProjectRow({ project, onRemoved }: ProjectRowProps) {
  const { removeProject } = useDroverActions();
  const [renaming, setRenaming] = useState(false);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const renameButtonRef = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);
  const nameId = useId();

  // Hand focus back to the Rename button when the inline form closes, so keyboard users stay put.
  useEffect(() => {
    if (wasRenaming.current && !renaming) renameButtonRef.current?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);

  async function remove(): Promise<void> {
    await removeProject(project.id);
    onRemoved();
  }

  return (
    <li className="project-row">
      {renaming ? (
        <RenameProjectForm project={project} onDone={() => setRenaming(false)} />
      ) : (
        <div className="project-row__main">
          <a id={nameId} className="project-row__link" href={routeHref({ page: 'project', projectId: project.id })}>
            {project.name}
          </a>
          <span className="project-row__path">{project.path}</span>
        </div>
      )}
      {!renaming && <ProjectAttentionBadge projectId={project.id} />}
      {!renaming && <ProjectTaskBadges projectId={project.id} />}
      {!renaming && (
        <div className="project-row__actions">
          <button
            ref={renameButtonRef}
            type="button"
            className="button button--ghost"
            aria-describedby={nameId}
            onClick={() => setRenaming(true)}
          >
            Rename
          </button>
          <button
            type="button"
            className="button button--ghost button--ghost-danger"
            aria-describedby={nameId}
            onClick={() => setConfirmingRemoval(true)}
          >
            Remove
          </button>
        </div>
      )}
      {confirmingRemoval && (
        <ConfirmDialog
          title={`Remove ${project.name} from Drover?`}
          confirmLabel="Remove project"
          onConfirm={remove}
          onClose={() => setConfirmingRemoval(false)}
        >
          <p>Drover will stop listing this project.</p>
          <p>
            The folder <code className="inline-path">{project.path}</code> is never touched: nothing in it is changed or
            deleted.
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}
