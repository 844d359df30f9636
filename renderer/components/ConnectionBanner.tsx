import { unreachableWords } from '../format/connectionLost';
import { useConnection, useConnectionProblem } from '../store/hooks';
import { machineOfPage } from '../transport/machinePage';

export function ConnectionBanner() {
  const connection = useConnection();
  const problem = useConnectionProblem();
  if (connection !== 'lost') return null;
  const machine = machineOfPage();
  const why = machine && problem ? ` ${problem}` : '';
  const work = machine ? `${machine}'s agents and tasks` : 'Agents and tasks';
  return (
    <div role="alert" className="connection-banner">
      {`${unreachableWords(machine, problem)}${why} ${work} go on there; their state shows again once connected.`}
    </div>
  );
}
