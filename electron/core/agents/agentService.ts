import type { RemoveOptions } from '../worktrees/worktreeService';
import type { Agent, FormerAgent } from '../../../shared/entities/agents';
import type { AgentWorkspaceRequest } from '../../../shared/entities/worktrees';
import { tasksWorkingIn } from '../../../shared/folders';
import { countOf } from '../../../shared/plural';
import { announceAgent, removeAgent } from './agentAnnouncer';
import { fail } from '../errors';
import type { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import type { Locator } from '../locate';
import type { ProfileRegistry } from '../profiles/profileRegistry';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import type { SessionService } from '../sessions/sessionService';
import type { WorktreeService } from '../worktrees/worktreeService';

export interface NewAgent {
  projectId: string;
  name: string;
  role: string;
  profileId: string;
  workspace?: AgentWorkspaceRequest | undefined;
}

/** The agents of each project: their definition (name, role, profile) and whether wakes are held. */
export class AgentService {
  constructor(
    private readonly locator: Locator,
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly profiles: ProfileRegistry,
    private readonly sessions: SessionService,
    private readonly worktrees: WorktreeService,
    private readonly events: EventBus,
  ) {}

  /**
   * Adds an agent; with a worktree request it gets its own worktree, made before the agent is
   * announced. The agent and its worktree are journalled in one transaction before anything is made
   * on disk: a failure undoes both, and a crash in between is undone at the next boot.
   */
  async create(input: NewAgent): Promise<Agent> {
    const project = this.projects.get(input.projectId);
    this.profiles.get(input.profileId);
    const store = this.stores.get(input.projectId);
    const name = input.name.trim();
    this.refuseTakenName(store, name);
    const fields = { id: newId('a'), name, role: input.role, profileId: input.profileId, createdAt: Date.now() };
    const workspace = input.workspace ?? { kind: 'project-folder' };
    if (workspace.kind === 'project-folder') return this.announce(store.agents.insert(fields));
    const plan = await this.worktrees.plan(project, name, workspace);
    // Another request may have taken the name while git answered.
    this.refuseTakenName(store, name);
    const agent = store.transaction(() => {
      const inserted = store.agents.insert(fields);
      this.worktrees.journal(store, inserted.id, plan);
      return inserted;
    });
    try {
      await this.worktrees.build(store, agent, plan);
    } catch (error) {
      store.agents.remove(agent.id);
      throw error;
    }
    this.announce(agent);
    this.worktrees.startSetup(store, agent);
    return agent;
  }

  update(input: { agentId: string; name?: string | undefined; role?: string | undefined; profileId?: string | undefined }): Agent {
    const { store, agent } = this.locator.agent(input.agentId);
    const name = input.name?.trim() ?? agent.name;
    const clash = store.agents.byName(name);
    if (clash && clash.id !== agent.id) fail('conflict', `An agent named ${name} already exists in this project.`);
    if (input.profileId) this.profiles.get(input.profileId);
    return this.announce(store.agents.update({ ...agent, name, role: input.role ?? agent.role, profileId: input.profileId ?? agent.profileId }));
  }

  /**
   * Stops the agent's session if it runs, removes its worktree folder (keeping a branch with work on
   * it unless `discardWork`, and any branch with `keepBranch`: an archive), then forgets the agent.
   * Returns the branch kept, if any. A branch at `mergedUpstream` (the commit a forge merged) counts
   * as merged.
   */
  async remove(agentId: string, { discardWork = false, keepBranch = false, mergedUpstream }: RemoveOptions = {}): Promise<string | null> {
    const { store, agent } = this.locator.agent(agentId);
    const worktree = store.worktrees.get(agentId);
    if (worktree) {
      // Their folder would vanish under them.
      const inside = tasksWorkingIn(store.tasks.active(), worktree.path);
      if (inside.length > 0) fail('invalid-state', `${countOf(inside.length, 'task')} of ${agent.name} still ${inside.length === 1 ? 'runs' : 'run'} in its worktree: cancel ${inside.length === 1 ? 'it' : 'them'} first.`);
    }
    await this.sessions.forget(agentId);
    const keptBranch = await this.worktrees.remove(store, agent, { discardWork, keepBranch, mergedUpstream });
    if (worktree) this.worktrees.forget(store, agentId);
    removeAgent(this.events, store, agentId);
    this.sessions.discardFiles(agent.projectId, agentId);
    const formerAgent = store.formerAgents.insert({
      id: agent.id,
      name: agent.name,
      role: agent.role,
      profileId: agent.profileId,
      worktreePath: worktree?.ownsFolder ? worktree.path : null,
      keptBranch,
      parentBranch: worktree?.parentBranch ?? null,
      removedAt: Date.now(),
    });
    this.events.emit({ name: 'formerAgentChanged', seq: formerAgent.seq, projectId: agent.projectId, formerAgent });
    return keptBranch;
  }

  /** Deletes the branch kept with a removed agent's work (see WorktreeService.deleteKeptBranch). */
  async deleteKeptBranch(agentId: string, force: boolean): Promise<FormerAgent> {
    const { store, formerAgent } = this.locator.formerAgent(agentId);
    await this.worktrees.deleteKeptBranch(store, formerAgent, force);
    const changed = store.formerAgents.dropBranch(agentId);
    this.events.emit({ name: 'formerAgentChanged', seq: changed.seq, projectId: changed.projectId, formerAgent: changed });
    return changed;
  }

  /** A person holds (or releases) automatic wakes of the agent. */
  holdWakes(agentId: string, hold: boolean): Agent {
    const { store, agent } = this.locator.agent(agentId);
    return this.announce(store.agents.update({ ...agent, wakesHeld: hold }));
  }

  private refuseTakenName(store: ProjectStore, name: string): void {
    if (store.agents.byName(name)) fail('conflict', `An agent named ${name} already exists in this project.`);
  }

  private announce(agent: Agent): Agent {
    return announceAgent(this.events, agent);
  }
}
