import { connectionBanner } from '../format/connectionLost';
import { useConnection, useConnectionLoss } from '../store/hooks';
import { machineOfPage } from '../transport/machinePage';

export function ConnectionBanner() {
  const connection = useConnection();
  const loss = useConnectionLoss();
  if (connection !== 'lost') return null;
  return (
    <div role="alert" className="connection-banner">
      {connectionBanner(machineOfPage(), loss)}
    </div>
  );
}
