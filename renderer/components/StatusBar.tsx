import { countOf } from '../../shared/plural';
import type { ConnectionState } from '../bridge';
import { useConnection, useProjects } from '../store/hooks';

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  lost: 'Reconnecting…',
};

export function StatusBar() {
  const connection = useConnection();
  const projectCount = Object.keys(useProjects().byId).length;
  return (
    <footer className="status-bar">
      <span className={`status-bar__connection status-bar__connection--${connection}`}>
        <span className="status-dot" aria-hidden="true" />
        {CONNECTION_LABELS[connection]}
      </span>
      <span>{countOf(projectCount, 'project')}</span>
    </footer>
  );
}
