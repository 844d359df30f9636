import { useConnection } from '../store/hooks';

export function ConnectionBanner() {
  const connection = useConnection();
  if (connection !== 'lost') return null;
  return (
    <div role="alert" className="connection-banner">
      Connection to Drover lost — reconnecting…
    </div>
  );
}
