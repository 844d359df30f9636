import type { AccountMethodName } from '../../../shared/contract/accounts';
import type { Methods } from '../api';
import type { Locator } from '../locate';
import type { AccountPauses } from './accountPauses';

/** A person pauses every agent of the account an agent spends, and resumes it. */
export function accountMethods(pauses: AccountPauses, locator: Locator): Methods<AccountMethodName> {
  return {
    pauseAgentAccount: ({ agentId }) => ({ account: pauses.pause(locator.agent(agentId).agent.profileId) }),
    resumeAccount: ({ key }) => ({ key, resumed: pauses.resume(key) }),
  };
}
