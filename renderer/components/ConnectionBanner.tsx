import { useConnection, useConnectionProblem } from '../store/hooks';
import { machineOfPage } from '../transport/machinePage';

export function ConnectionBanner() {
  const connection = useConnection();
  const problem = useConnectionProblem();
  if (connection !== 'lost') return null;
  const machine = machineOfPage();
  return (
    <div role="alert" className="connection-banner">
      {machine
        ? `${machine} unreachable — reconnecting…${problem ? ` ${problem}` : ''} Its agents and tasks go on there; their state shows again once connected.`
        : 'Not connected to the Drover host — reconnecting… Agents and tasks go on there; their state shows again once connected.'}
    </div>
  );
}
