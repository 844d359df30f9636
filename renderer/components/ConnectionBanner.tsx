import { useConnection } from '../store/hooks';

export function ConnectionBanner() {
  const connection = useConnection();
  if (connection !== 'lost') return null;
  return (
    <div role="alert" className="connection-banner">
      Not connected to the Drover host — reconnecting… Agents and tasks go on there; their state shows again once connected.
    </div>
  );
}
