import { useDrover } from '../store/StoreContext';

export function ConnectionBanner() {
  const connection = useDrover((state) => state.connection);
  if (connection !== 'lost') return null;
  return (
    <div role="alert" className="connection-banner">
      Connection to Drover lost — reconnecting…
    </div>
  );
}
