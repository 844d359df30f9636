import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Agent, AgentProfile } from '../../shared/entities';
import { usePaletteCommands } from '../components/commandRegistry';
import { InboxDialog } from '../inbox/InboxDialog';
import { useFocusRequest } from '../store/focusRequest';
import { useAgents, useAgentWork, useProfiles, useWorkState } from '../store/hooks';
import { usePhoneLayout } from '../store/phoneLayout';
import { NO_WORK } from '../store/selectors';
import { useDroverActions } from '../store/StoreContext';
import { chosenSoloAgent, setSoloAgent, soloAgentId, useWorkspaceView } from '../store/workspaceView';
import { entitiesOf } from '../store/versioned';
import { KeptBranchesDialog } from '../worktrees/KeptBranchesDialog';
import { RemoveAgentDialog } from '../worktrees/RemoveAgentDialog';
import { AgentFormDialog } from './AgentFormDialog';
import { AgentPane, type AgentPaneHandle } from './AgentPane';
import { agentCommands, type AgentCommand, type OpenDialog } from './agentCommands';
import { AgentSwitcher } from './AgentSwitcher';
import { gridShape } from './paneLayout';
import { ProfilesDialog } from './ProfilesDialog';
import { useAgentShortcuts, type AgentsCommand } from './useAgentShortcuts';
import { useElementSize } from './useElementSize';

// The diff viewer and its syntax highlighting are large: loaded once an agent has a worktree.
const loadChangesDialog = () => import('../worktrees/ChangesDialog');
const ChangesDialog = lazy(() => loadChangesDialog().then((module) => ({ default: module.ChangesDialog })));

/** The project's agents as a grid of live terminals, with adding, editing and removing agents. */
export function AgentsArea({ projectId }: { projectId: string }) {
  const agentsById = useWorkState(projectId, 'agentsById');
  const agents = useAgents(projectId);
  const sessions = useWorkState(projectId, 'sessionsByAgentId');
  const workByAgentId = useAgentWork(projectId);
  const worktrees = useWorkState(projectId, 'worktreesByAgentId');
  const forgeLinks = useWorkState(projectId, 'forgeLinksByAgentId');
  const formerAgents = useWorkState(projectId, 'formerAgentsById');
  const profiles = useProfiles().list;
  const { trackAgentProfiles, startAgent, stopAgent, restartAgent, holdAgentWakes } = useDroverActions();
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const phone = usePhoneLayout();
  const chosenSolo = useWorkspaceView((state) => chosenSoloAgent(state, projectId, phone));
  // A ref, not state: Alt+1 then Ctrl+Shift+Enter can come faster than the focus moves (it waits a
  // frame) or a render, and the second key must act on the pane the first one chose.
  const focusedId = useRef<string | null>(null);
  const paneHandles = useRef(new Map<string, AgentPaneHandle>());
  const gridRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(gridRef);
  const headingId = useId();

  useEffect(trackAgentProfiles, [trackAgentProfiles]);
  const hasWorktrees = Object.keys(worktrees).length > 0;
  useEffect(() => {
    if (hasWorktrees) void loadChangesDialog();
  }, [hasWorktrees]);

  // A kept branch an agent works on again (attached) is that agent's now.
  const kept = useMemo(() => {
    const inUse = new Set(Object.values(worktrees).map((worktree) => worktree.branch));
    return entitiesOf(formerAgents).filter((former) => former.keptBranch !== null && !inUse.has(former.keptBranch));
  }, [formerAgents, worktrees]);
  const profilesById = useMemo(() => new Map<string, AgentProfile>(profiles.map((profile) => [profile.id, profile])), [profiles]);
  // One pane shown alone: the one maximised, or on a phone the one the switcher picked.
  const soloId = soloAgentId(agents, chosenSolo, phone);
  const maximised = agents.find((agent) => agent.id === soloId) ?? null;
  const setMaximisedId = (agentId: string | null) => setSoloAgent(projectId, agentId);
  const shape = maximised ? { columns: 1, rows: 1 } : gridShape(agents.length, size.width, size.height);

  const focusPane = useCallback((agentId: string) => {
    focusedId.current = agentId;
    requestAnimationFrame(() => paneHandles.current.get(agentId)?.focus());
  }, []);
  const maximisedId = maximised?.id ?? null;
  /** Brings the agent's pane into view (the one shown alone, if one is) and focuses it. */
  const showPane = useCallback(
    (agentId: string) => {
      if (maximisedId) setSoloAgent(projectId, agentId);
      focusPane(agentId);
    },
    [maximisedId, projectId, focusPane],
  );

  useFocusRequest((target) => {
    if (target.kind !== 'agent' || target.projectId !== projectId || !agentsById[target.agentId]) return false;
    showPane(target.agentId);
    return true;
  });

  const commands = useMemo(() => {
    const run = (command: AgentCommand): void | Promise<unknown> => {
      if (!('agent' in command)) return setDialog({ kind: command.action });
      const { agent } = command;
      switch (command.action) {
        case 'focus':
          return showPane(agent.id);
        case 'start':
          return startAgent(agent.id, true);
        case 'stop':
          return stopAgent(agent.id);
        case 'restart':
          return restartAgent(agent.id);
        case 'inbox':
        case 'changes':
          return setDialog({ kind: command.action, agentId: agent.id });
        case 'hold':
        case 'release':
          return holdAgentWakes(agent.id, command.action === 'hold');
        case 'edit':
        case 'remove':
          return setDialog({ kind: command.action, agent });
      }
    };
    return agentCommands(agents, sessions, worktrees).map((command) => ({ ...command, run: () => run(command) }));
  }, [agents, sessions, worktrees, startAgent, stopAgent, restartAgent, holdAgentWakes, showPane]);
  usePaletteCommands(commands);

  const focusedAgentId = () => agents.find((agent) => agent.id === focusedId.current)?.id ?? agents[0]?.id ?? null;

  useAgentShortcuts((command: AgentsCommand) => {
    if (command.kind === 'focusPane') {
      const agent = agents[command.index];
      if (!agent) return false;
      showPane(agent.id);
      return true;
    }
    if (command.kind === 'openInbox') {
      const agentId = focusedAgentId();
      if (!agentId) return false;
      setDialog({ kind: 'inbox', agentId });
      return true;
    }
    if (command.kind === 'openChanges') {
      const agentId = focusedAgentId();
      if (!agentId || worktrees[agentId]?.state !== 'ready') return false;
      setDialog({ kind: 'changes', agentId });
      return true;
    }
    if (command.kind === 'toggleMaximise') {
      const target = maximised ? null : focusedAgentId();
      setMaximisedId(target);
      const keepFocusOn = maximised?.id ?? target;
      if (keepFocusOn) focusPane(keepFocusOn);
      return true;
    }
    if (!maximised || phone) return false;
    setMaximisedId(null);
    return true;
  });

  const inboxAgent = dialog?.kind === 'inbox' ? agentsById[dialog.agentId] : undefined;
  const changesAgent = dialog?.kind === 'changes' ? agentsById[dialog.agentId] : undefined;
  const changesWorktree = changesAgent && worktrees[changesAgent.id];
  const takenNames = (except?: Agent) => agents.filter((agent) => agent !== except).map((agent) => agent.name);

  return (
    <section className="agents" aria-labelledby={headingId}>
      <header className="agents__toolbar">
        <h2 id={headingId} className="agents__title">
          Agents
        </h2>
        <span className="pill">{agents.length}</span>
        <span className="agents__spacer" />
        {kept.length > 0 && (
          <button type="button" className="button button--ghost" onClick={() => setDialog({ kind: 'kept-branches' })}>
            Kept branches <span className="pill">{kept.length}</span>
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={() => setDialog({ kind: 'profiles' })}>
          Profiles
        </button>
        <button type="button" className="button button--primary button--compact" onClick={() => setDialog({ kind: 'add' })}>
          Add agent
        </button>
      </header>
      {phone && agents.length > 1 && (
        <AgentSwitcher agents={agents} sessions={sessions} shownId={soloId} onShow={(agentId) => showPane(agentId)} />
      )}
      <div
        ref={gridRef}
        className="agents__grid"
        style={{ gridTemplateColumns: `repeat(${shape.columns}, minmax(0, 1fr))`, gridTemplateRows: `repeat(${shape.rows}, minmax(180px, 1fr))` }}
      >
        {agents.length === 0 && (
          <div className="agents__empty">
            <p className="agents__empty-title">No agents yet</p>
            <p>Add an agent to run Claude Code, Codex, Aider, Gemini or a shell in this project, each in its own terminal.</p>
          </div>
        )}
        {agents.map((agent, index) => (
          <AgentPane
            key={agent.id}
            ref={(handle) => {
              if (handle) paneHandles.current.set(agent.id, handle);
              else paneHandles.current.delete(agent.id);
            }}
            agent={agent}
            index={index}
            session={sessions[agent.id]}
            profile={profilesById.get(agent.profileId)}
            work={workByAgentId.get(agent.id) ?? NO_WORK}
            worktree={worktrees[agent.id]}
            forgeLink={forgeLinks[agent.id]}
            maximised={maximised === agent && !phone}
            hidden={maximised !== null && maximised !== agent}
            onToggleMaximise={() => !phone && setMaximisedId(maximised === agent ? null : agent.id)}
            onEdit={() => setDialog({ kind: 'edit', agent })}
            onOpenInbox={() => setDialog({ kind: 'inbox', agentId: agent.id })}
            onOpenChanges={() => setDialog({ kind: 'changes', agentId: agent.id })}
            onRemove={() => setDialog({ kind: 'remove', agent })}
            onFocusWithin={() => {
              focusedId.current = agent.id;
            }}
          />
        ))}
      </div>
      {dialog?.kind === 'add' && <AgentFormDialog projectId={projectId} takenNames={takenNames()} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && (
        <AgentFormDialog projectId={projectId} agent={dialog.agent} takenNames={takenNames(dialog.agent)} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'remove' && <RemoveAgentDialog agent={dialog.agent} worktree={worktrees[dialog.agent.id]} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'profiles' && <ProfilesDialog onClose={() => setDialog(null)} />}
      {dialog?.kind === 'kept-branches' && <KeptBranchesDialog projectId={projectId} kept={kept} agents={agents} onClose={() => setDialog(null)} />}
      {inboxAgent && <InboxDialog agent={inboxAgent} onClose={() => setDialog(null)} />}
      {changesAgent && changesWorktree && (
        <Suspense fallback={null}>
          <ChangesDialog agent={changesAgent} worktree={changesWorktree} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </section>
  );
}
