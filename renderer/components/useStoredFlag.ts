import { useCallback, useState } from 'react';
import { readLocalSetting, writeLocalSetting } from '../store/localSetting';

function read(key: string, fallback: boolean): boolean {
  const stored = readLocalSetting(key);
  return stored === null ? fallback : stored === 'true';
}

/** A boolean UI preference (a panel shown or hidden) that survives reloads. */
export function useStoredFlag(key: string, fallback: boolean): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => read(key, fallback));
  const update = useCallback(
    (next: boolean) => {
      setValue(next);
      writeLocalSetting(key, String(next));
    },
    [key],
  );
  return [value, update];
}
