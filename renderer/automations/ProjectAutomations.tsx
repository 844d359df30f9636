import { useMemo, useState } from 'react';
import { usePaletteCommands, type PaletteCommand } from '../components/commandRegistry';
import { LoadFailureBoundary } from '../components/LoadFailureBoundary';
import { preloadable } from '../components/preloadable';

// Its own chunk: the page's first load does not wait for a dialog most visits never open.
const { Component: AutomationsDialog } = preloadable(
  () => import('./AutomationsDialog'),
  (module) => module.AutomationsDialog,
);

/** The project page's way to its automations: a header button and the palette's "Automations…". */
export function ProjectAutomations({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState(false);
  const commands = useMemo<PaletteCommand[]>(
    () => [{ id: 'project:automations', group: 'Project', label: 'Automations…', keywords: ['schedule', 'cron', 'rules', 'trigger'], run: () => setOpen(true) }],
    [],
  );
  usePaletteCommands(commands);

  return (
    <>
      <button type="button" className="button button--ghost" title="Tasks, agents and messages the host starts on a schedule or an event" onClick={() => setOpen(true)}>
        Automations
      </button>
      {open && (
        <LoadFailureBoundary what="Automations">
          <AutomationsDialog projectId={projectId} onClose={() => setOpen(false)} />
        </LoadFailureBoundary>
      )}
    </>
  );
}
