import { countOf } from '../../shared/plural';
import type { ConnectionState } from '../bridge';
import type { DroverState } from '../store/droverStore';
import { useConnection, useConnectionLoss, useProjects } from '../store/hooks';
import { useOtherMachines } from '../store/otherMachines';

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  lost: 'Reconnecting…',
};

/** A page refused (no token, not the door) does not try again: it never says it does. */
const REFUSED_LABEL = 'Not connected';

function projectsChanged(state: DroverState, previous: DroverState): boolean {
  return state.projects !== previous.projects;
}

export function StatusBar() {
  const connection = useConnection();
  const refused = useConnectionLoss()?.kind === 'refused';
  const projectCount = Object.keys(useProjects().byId).length;
  const elsewhere = useOtherMachines(projectsChanged).reduce((count, { state }) => count + Object.keys(state.projects.byId).length, 0);
  return (
    <footer className="status-bar">
      <span className={`status-bar__connection status-bar__connection--${connection}`}>
        <span className="status-dot" aria-hidden="true" />
        {refused ? REFUSED_LABEL : CONNECTION_LABELS[connection]}
      </span>
      <span>
        {countOf(projectCount, 'project')}
        {elsewhere > 0 && ` · ${elsewhere} on other machines`}
      </span>
    </footer>
  );
}
