import { useCallback, useRef, useState } from 'react';
import { errorMessage } from '../store/errorMessage';

/**
 * Runs one request at a time for a control group: `pending` disables the buttons, and the last
 * failure stays in `error` (prefixed with what was tried) until the next success.
 */
export function usePendingAction() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);

  const run = useCallback(async (action: () => Promise<unknown>, failurePrefix = ''): Promise<boolean> => {
    if (busy.current) return false;
    busy.current = true;
    setPending(true);
    try {
      await action();
      setError(null);
      return true;
    } catch (failure) {
      setError(failurePrefix + errorMessage(failure));
      return false;
    } finally {
      busy.current = false;
      setPending(false);
    }
  }, []);

  return { pending, error, run, clearError: useCallback(() => setError(null), []) };
}
