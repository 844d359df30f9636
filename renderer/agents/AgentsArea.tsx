import { useId } from 'react';
import { LoadFailureBoundary } from '../components/LoadFailureBoundary';
import { InboxDialog } from '../inbox/InboxDialog';
import { useAgentWork, useWorkState } from '../store/hooks';
import { NO_WORK } from '../store/selectors';
import { KeptBranchesDialog } from '../worktrees/KeptBranchesDialog';
import { RemoveAgentDialog } from '../worktrees/RemoveAgentDialog';
import { AgentFormDialog } from './AgentFormDialog';
import { AgentPane } from './AgentPane';
import { AgentSwitcher } from './AgentSwitcher';
import { ProfilesDialog } from './ProfilesDialog';
import { changesDialog, useAgentsArea } from './useAgentsArea';

const ChangesDialog = changesDialog.Component;

/** The project's agents as a grid of live terminals, with adding, editing and removing agents. */
export function AgentsArea({ projectId }: { projectId: string }) {
  const workByAgentId = useAgentWork(projectId);
  const forgeLinks = useWorkState(projectId, 'forgeLinksByAgentId');
  const headingId = useId();
  const { agents, sessions, worktrees, kept, profilesById, panes, dialog, openDialog, closeDialog, inboxAgent, changes, takenNames } = useAgentsArea(projectId);
  const { phone, shape, maximised, soloId, gridRef, showPane, setMaximisedId, setPaneHandle, noteFocused } = panes;

  return (
    <section className="agents" aria-labelledby={headingId}>
      <header className="agents__toolbar">
        <h2 id={headingId} className="agents__title">
          Agents
        </h2>
        <span className="pill">{agents.length}</span>
        <span className="agents__spacer" />
        {kept.length > 0 && (
          <button type="button" className="button button--ghost" onClick={() => openDialog({ kind: 'kept-branches' })}>
            Kept branches <span className="pill">{kept.length}</span>
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={() => openDialog({ kind: 'profiles' })}>
          Profiles
        </button>
        <button type="button" className="button button--primary button--compact" onClick={() => openDialog({ kind: 'add' })}>
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
            ref={(handle) => setPaneHandle(agent.id, handle)}
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
            onEdit={() => openDialog({ kind: 'edit', agent })}
            onOpenInbox={() => openDialog({ kind: 'inbox', agentId: agent.id })}
            onOpenChanges={() => openDialog({ kind: 'changes', agentId: agent.id })}
            onRemove={() => openDialog({ kind: 'remove', agent })}
            onFocusWithin={() => noteFocused(agent.id)}
          />
        ))}
      </div>
      {dialog?.kind === 'add' && <AgentFormDialog projectId={projectId} takenNames={takenNames()} onClose={closeDialog} />}
      {dialog?.kind === 'edit' && (
        <AgentFormDialog projectId={projectId} agent={dialog.agent} takenNames={takenNames(dialog.agent)} onClose={closeDialog} />
      )}
      {dialog?.kind === 'remove' && <RemoveAgentDialog agent={dialog.agent} worktree={worktrees[dialog.agent.id]} onClose={closeDialog} />}
      {dialog?.kind === 'profiles' && <ProfilesDialog onClose={closeDialog} />}
      {dialog?.kind === 'kept-branches' && <KeptBranchesDialog projectId={projectId} kept={kept} agents={agents} onClose={closeDialog} />}
      {inboxAgent && <InboxDialog agent={inboxAgent} onClose={closeDialog} />}
      {changes && (
        <LoadFailureBoundary what={`${changes.agent.name}'s changes`}>
          <ChangesDialog agent={changes.agent} worktree={changes.worktree} onClose={closeDialog} />
        </LoadFailureBoundary>
      )}
    </section>
  );
}
