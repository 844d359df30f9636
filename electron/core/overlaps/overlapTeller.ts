import type { Agent } from '../../../shared/entities/agents';
import type { InboxMessage } from '../../../shared/entities/inbox';
import { lineRangesText } from '../../../shared/overlaps';
import { fail } from '../errors';
import type { MediatedInbox } from '../inbox/mediatedInbox';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import type { ChangedLines } from './changedLines';
import type { OverlapRadar } from './overlapRadar';

/** "line 4", "lines 4, 9-12" of the file where the branches left their parent. */
const linesOf = (lines: ChangedLines, path: string): string => {
  const ranges = lines.get(path) ?? [];
  if (ranges.length === 0) return 'no lines now';
  const [only] = ranges;
  return `${ranges.length === 1 && only && only[0] === only[1] ? 'line' : 'lines'} ${lineRangesText(ranges)}`;
};

/**
 * Tells two agents whose branches conflict about it, through their inboxes (each note wakes its
 * agent safely): the files the merge would stop in, the lines each of them changes there, and who
 * the other agent is, so they can settle it before either branch is merged.
 */
export class OverlapTeller {
  constructor(
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly radar: OverlapRadar,
    private readonly inbox: MediatedInbox,
  ) {}

  async tell(projectId: string, agentIds: readonly [string, string]): Promise<InboxMessage[]> {
    this.projects.get(projectId);
    const store = this.stores.get(projectId);
    const [first, second] = agentIds.map((agentId) => store.agents.get(agentId) ?? fail('not-found', `No agent ${agentId} in this project.`)) as [Agent, Agent];
    if (first.id === second.id) fail('bad-request', `Name two agents: ${first.name} cannot conflict with itself.`);
    const { pairs } = await this.radar.overlaps(projectId);
    const pair = pairs.find((candidate) => candidate.conflict && candidate.agents.includes(first.id) && candidate.agents.includes(second.id));
    if (!pair) fail('invalid-state', `${first.name} and ${second.name} do not conflict: their branches merge cleanly with each other, so there is nothing to tell them.`);
    return [this.note(store, first, second, pair.conflictFiles), this.note(store, second, first, pair.conflictFiles)];
  }

  private note(store: ProjectStore, to: Agent, other: Agent, files: readonly string[]): InboxMessage {
    const own = this.radar.changedLinesOf(store.projectId, to.id);
    const theirs = this.radar.changedLinesOf(store.projectId, other.id);
    const branch = (agent: Agent) => store.worktrees.get(agent.id)?.branch ?? 'its branch';
    const body = [
      `Your branch ${branch(to)} and ${other.name}'s branch ${branch(other)} conflict: whichever is merged second will stop in ${files.length === 1 ? 'this file' : 'these files'}:`,
      ...files.map((file) => `- ${file}: you change ${linesOf(own, file)}; ${other.name} changes ${linesOf(theirs, file)}`),
      `Agree with ${other.name} (send_message or ask_agent) who changes what there before either branch is merged.`,
    ].join('\n');
    return this.inbox.post(store.projectId, { agentId: to.id, kind: 'note', body });
  }
}
