import { useCallback, useRef, useState } from 'react';
import { errorMessage } from '../format/errorMessage';

/**
 * Runs one request at a time for a control group or a form: `pending` disables the buttons, and
 * the last failure stays in `error` (prefixed with what was tried). Controls keep showing it until
 * the next success; a form (`clearErrorOnStart`) clears it as soon as it submits again, and sets
 * its own problems (an empty field) through `setError`.
 */
export function usePendingAction({ clearErrorOnStart = false } = {}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);

  const run = useCallback(
    async (action: () => Promise<unknown>, failurePrefix = ''): Promise<boolean> => {
      if (busy.current) return false;
      busy.current = true;
      setPending(true);
      if (clearErrorOnStart) setError(null);
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
    },
    [clearErrorOnStart],
  );

  return { pending, error, run, setError };
}
