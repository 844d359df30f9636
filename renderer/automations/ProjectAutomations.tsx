import { useMemo, useState } from 'react';
import { usePaletteCommands, type PaletteCommand } from '../components/commandRegistry';
import { AutomationsDialog } from './AutomationsDialog';

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
      {open && <AutomationsDialog projectId={projectId} onClose={() => setOpen(false)} />}
    </>
  );
}
