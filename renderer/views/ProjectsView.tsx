import { useId, useMemo, useRef } from 'react';
import type { Project } from '../../shared/entities/projects';
import { PageHeading } from '../components/PageHeading';
import { useProjects } from '../store/hooks';
import type { LoadStatus } from '../store/slice';
import { machineOfPage } from '../transport/machinePage';
import { AddProjectForm } from './AddProjectForm';
import { MachinesPanel } from './MachinesPanel';
import { ProjectRow } from './ProjectRow';

function byName(a: Project, b: Project): number {
  return a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.path.localeCompare(b.path);
}

export function ProjectsView() {
  const projects = useProjects();
  const sorted = useMemo(() => Object.values(projects.byId).sort(byName), [projects.byId]);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);
  const listHeadingId = useId();
  const machine = machineOfPage();

  return (
    <div className="page">
      <header className="page-header">
        <PageHeading>{machine ? `Projects on ${machine}` : 'Projects'}</PageHeading>
        <p className="page-header__lede">
          {machine ? `Folders on ${machine} whose agents and background tasks its Drover host supervises, over ssh.` : 'Folders whose agents and background tasks Drover supervises.'}
        </p>
      </header>

      <AddProjectForm />

      <section className="panel" aria-labelledby={listHeadingId}>
        <h2 id={listHeadingId} ref={listHeadingRef} tabIndex={-1} className="panel__title">
          {machine ? 'Registered projects' : 'Projects on this machine'} <span className="count-badge">{sorted.length}</span>
        </h2>
        <ProjectListBody
          status={projects.status}
          error={projects.error}
          projects={sorted}
          onRemoved={() => listHeadingRef.current?.focus()}
        />
      </section>

      {!machine && <MachinesPanel />}
    </div>
  );
}

interface ProjectListBodyProps {
  status: LoadStatus;
  error: string | null;
  projects: Project[];
  onRemoved(): void;
}

function ProjectListBody({ status, error, projects, onRemoved }: ProjectListBodyProps) {
  if (projects.length > 0) {
    return (
      <ul className="project-list">
        {projects.map((project) => (
          <ProjectRow key={project.id} project={project} onRemoved={onRemoved} />
        ))}
      </ul>
    );
  }
  if (status === 'loading') return <p className="empty-state">Loading projects…</p>;
  if (status === 'error') return <p className="empty-state empty-state--error">Could not load projects: {error}</p>;
  return <p className="empty-state">No projects yet. Add a folder above to start supervising its agents.</p>;
}
