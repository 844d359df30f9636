import type { PausedAccount } from '../../shared/appSettings';
import { FormError } from '../components/FormError';
import { StatusBadge } from '../components/StatusBadge';
import { usePendingAction } from '../components/usePendingAction';
import { useNow } from '../components/useNow';
import { formatClockTime } from '../format/clockTime';
import { useProfiles } from '../store/hooks';
import { useDrover, useDroverActions } from '../store/StoreContext';
import { accountResetsAt } from './pausedAccounts';

/** The accounts a person paused, first in the Needs you queue: when each paused, when its limit lifts, and Resume. */
export function PausedAccountsList({ paused }: { paused: readonly PausedAccount[] }) {
  const { resumeAccount } = useDroverActions();
  const resuming = usePendingAction();
  const workStates = useDrover((state) => state.workStates);
  const profiles = useProfiles().list;
  const now = useNow(true);
  if (paused.length === 0) return null;
  return (
    <>
      <ul className="attention-list attention-list--accounts" aria-label="Paused accounts">
        {paused.map((account) => {
          const resetsAt = accountResetsAt(account.key, workStates, profiles, now);
          const detail = `Drover wakes none of its agents · paused ${formatClockTime(account.pausedAt, now)}${resetsAt === null ? '' : ` · its limit resets ${formatClockTime(resetsAt, now)}`}`;
          return (
            <li key={account.key} className="attention-item" aria-label={`${account.label}: paused`}>
              <div className="attention-item__go attention-item__go--static">
                <StatusBadge status={{ label: 'Paused', tone: 'interrupted' }} />
                <span className="attention-item__subject">{account.label}</span>
                <span className="attention-item__detail">{detail}</span>
              </div>
              <button
                type="button"
                className="button"
                aria-label={`Resume ${account.label}`}
                disabled={resuming.pending}
                onClick={() => void resuming.run(() => resumeAccount(account.key), `Could not resume ${account.label}: `)}
              >
                Resume
              </button>
            </li>
          );
        })}
      </ul>
      <FormError message={resuming.error} />
    </>
  );
}
