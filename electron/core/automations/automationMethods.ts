import type { AutomationMethodName } from '../../../shared/contract/automations';
import type { Methods } from '../api';
import type { AutomationService } from './automationService';

const HISTORY_SHOWN = 50;
const UPCOMING_SHOWN = 3;

/** Automations: the person's rules the host runs on a schedule or an event. */
export function automationMethods(automations: AutomationService): Methods<AutomationMethodName> {
  return {
    addAutomation: (input) => automations.add(input),
    updateAutomation: (change) => automations.update(change),
    listAutomations: ({ projectId }) => automations.list(projectId),
    getAutomationHistory: ({ projectId, name, limit }) => automations.history(projectId, name, limit ?? HISTORY_SHOWN),
    runAutomation: ({ projectId, name }) => automations.runNow(projectId, name),
    pauseAutomation: ({ projectId, name }) => automations.pause(projectId, name),
    resumeAutomation: ({ projectId, name }) => automations.resume(projectId, name),
    removeAutomation: ({ projectId, name }) => automations.remove(projectId, name),
    getUpcomingAutomationRuns: ({ projectId, count }) => automations.next(projectId, count ?? UPCOMING_SHOWN),
  };
}
