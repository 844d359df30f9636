import { useId } from 'react';
import { LoadFailureBoundary } from '../components/LoadFailureBoundary';
import { InboxDialog } from '../inbox/InboxDialog';
import { useAgentWork, useWorkState } from '../store/hooks';
import { NO_WORK } from '../store/selectors';
import { KeptBranchesDialog } from '../worktrees/KeptBranchesDialog';
import { RemoveAgentDialog } from '../worktrees/RemoveAgentDialog';
import { useProjectOverlaps } from '../store/useProjectOverlaps';
import { AgentFormDialog } from './AgentFormDialog';
import { AgentPane } from './AgentPane';
import { AgentFocusList } from './AgentFocusList';
import { AgentSwitcher } from './AgentSwitcher';
import { PaneLayoutSwitch } from './PaneLayoutSwitch';
import { ProfilesDialog } from './ProfilesDialog';
import { changesDialog, useAgentsArea } from './useAgentsArea';

const ChangesDialog = changesDialog.Component;

/** The project's agents as live terminals (in a grid, one in focus, or under tabs), with adding, editing and removing agents. */
export function AgentsArea({ projectId }: { projectId: string }) {
  const workByAgentId = useAgentWork(projectId);
  const forgeLinks = useWorkState(projectId, 'forgeLinksByAgentId');
  const overlaps = useProjectOverlaps(projectId);
  const mergeQueue = useWorkState(projectId, 'mergeQueueByAgentId');
  const headingId = useId();
  const { agents, sessions, worktrees, kept, profilesById, panes, dialog, openDialog, closeDialog, inboxAgent, changes, takenNames } = useAgentsArea(projectId);
  const { phone, layout, setLayout, shape, maximised, soloId, gridRef, showPane, setMaximisedId, setPaneHandle, noteFocused } = panes;
  const listed = layout === 'focus' ? agents.filter((agent) => agent !== maximised) : [];
  const gridStyle =
    layout === 'focus' && listed.length > 0
      ? undefined
      : { gridTemplateColumns: `repeat(${shape.columns}, minmax(0, 1fr))`, gridTemplateRows: `repeat(${shape.rows}, minmax(180px, 1fr))` };

  return (
    <section className="agents" aria-labelledby={headingId}>
      <header className="agents__toolbar">
        <h2 id={headingId} className="agents__title">
          Agents
        </h2>
        <span className="pill">{agents.length}</span>
        <span className="agents__spacer" />
        {!phone && <PaneLayoutSwitch layout={layout} onChange={setLayout} />}
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
      {layout === 'tabs' && agents.length > 1 && (
        <AgentSwitcher agents={agents} sessions={sessions} shownId={soloId} onShow={(agentId) => showPane(agentId)} />
      )}
      <div ref={gridRef} className={listed.length > 0 ? 'agents__grid agents__grid--focus' : 'agents__grid'} data-layout={layout} style={gridStyle}>
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
            overlaps={overlaps}
            mergeQueueEntry={mergeQueue[agent.id]}
            maximised={maximised === agent && layout === 'grid'}
            canMaximise={layout === 'grid'}
            hidden={maximised !== null && maximised !== agent}
            onToggleMaximise={() => setMaximisedId(maximised === agent ? null : agent.id)}
            onEdit={() => openDialog({ kind: 'edit', agent })}
            onOpenInbox={() => openDialog({ kind: 'inbox', agentId: agent.id })}
            onOpenChanges={() => openDialog({ kind: 'changes', agentId: agent.id })}
            onRemove={() => openDialog({ kind: 'remove', agent })}
            onFocusWithin={() => noteFocused(agent.id)}
          />
        ))}
        {listed.length > 0 && <AgentFocusList agents={listed} sessions={sessions} workByAgentId={workByAgentId} onShow={showPane} />}
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
