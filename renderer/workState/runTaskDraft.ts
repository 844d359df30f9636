import { METHODS } from '../../shared/contract';

/** The Run task form as typed; empty optional fields are left out of the request. */
export interface RunTaskDraft {
  command: string;
  label: string;
  /** An agent's id, or '' for none. */
  ownerAgentId: string;
  cwd: string;
}

const LIMITS = METHODS.createTask.params.shape;

/**
 * What is wrong with the draft before it is sent, by field, in the contract's own limits (the same
 * ones `drover task run` meets at the host); the host still checks the folder and the agent.
 */
export function runTaskProblems(draft: RunTaskDraft): Partial<Record<'command' | 'label', string>> {
  const problems: Partial<Record<'command' | 'label', string>> = {};
  if (!draft.command.trim()) problems.command = 'Type the command to run.';
  else if (!LIMITS.command.safeParse(draft.command).success) problems.command = 'The command is too long (100,000 characters at most).';
  if (draft.label.trim() && !LIMITS.label.safeParse(draft.label).success) problems.label = 'Keep the label to 200 characters.';
  return problems;
}
