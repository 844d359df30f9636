const SAVED_WORK_ENDING = ', saved by Drover when the agent was removed';

/**
 * The subject of the commit Drover makes of a removed agent's uncommitted work on the branch it
 * keeps; a merge of that branch later brings it along, and `drover worktree merge --check` names it.
 */
export function savedWorkSubject(agentName: string): string {
  return `Uncommitted work of ${agentName}${SAVED_WORK_ENDING}`;
}

export function isSavedWorkSubject(subject: string): boolean {
  return subject.startsWith('Uncommitted work of ') && subject.endsWith(SAVED_WORK_ENDING);
}
