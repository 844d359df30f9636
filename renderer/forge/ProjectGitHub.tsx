import { useState } from 'react';
import { GitHubSettingsDialog } from './GitHubSettingsDialog';
import { IssuesDialog } from './IssuesDialog';

/** The project page's way to GitHub: its connection and settings, and its issues to start agents on. */
export function ProjectGitHub({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState<'settings' | 'issues' | null>(null);
  return (
    <>
      <button type="button" className="button button--ghost" title="The project's GitHub repository, token and settings" onClick={() => setOpen('settings')}>
        GitHub
      </button>
      <button type="button" className="button button--ghost" title="The project's open GitHub issues: start an agent on one" onClick={() => setOpen('issues')}>
        Issues
      </button>
      {open === 'settings' && <GitHubSettingsDialog projectId={projectId} onClose={() => setOpen(null)} />}
      {open === 'issues' && <IssuesDialog projectId={projectId} onClose={() => setOpen(null)} />}
    </>
  );
}
