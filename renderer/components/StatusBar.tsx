import type { ConnectionState } from '../bridge';
import { useDrover } from '../store/StoreContext';
import { countOf } from '../../shared/plural';

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  lost: 'Reconnecting…',
};

export function StatusBar() {
  const connection = useDrover((state) => state.connection);
  const projectCount = useDrover((state) => Object.keys(state.projects.byId).length);
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
