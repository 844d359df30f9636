import type { Agent } from '../../shared/entities/agents';
import type { MergeQueueEntry } from '../../shared/entities/mergeQueue';
import type { AgentSession } from '../../shared/entities/sessions';
import type { Worktree } from '../../shared/entities/worktrees';
import type { PaletteCommand } from '../components/commandRegistry';
import { isSessionLive } from '../format/agentPresentation';
import type { EntityMap } from '../store/versioned';
import { PANE_LAYOUTS, type PaneLayout } from '../store/workspaceView';
import { isInMergeQueue } from './MergeQueueChip';

/** The dialogs of the agents area. */
export type OpenDialog =
  | { kind: 'add' }
  | { kind: 'edit'; agent: Agent }
  | { kind: 'remove'; agent: Agent }
  | { kind: 'profiles' }
  | { kind: 'kept-branches' }
  | { kind: 'inbox'; agentId: string }
  | { kind: 'changes'; agentId: string };

export type AgentAction = 'focus' | 'start' | 'stop' | 'restart' | 'inbox' | 'changes' | 'queue' | 'unqueue' | 'hold' | 'release' | 'edit' | 'remove';

/** A palette command of the agents area: adding one, or an action on one agent (the area runs it). */
type CommandWords = Omit<PaletteCommand, 'run'>;
export type AgentCommand = (CommandWords & { action: 'add' | 'profiles' }) | (CommandWords & { action: AgentAction; agent: Agent });

/** What the palette offers for the project's agents: add one, and for each, what its pane offers. */
export function agentCommands(
  agents: readonly Agent[],
  sessions: EntityMap<AgentSession>,
  worktrees: EntityMap<Worktree>,
  mergeQueue: EntityMap<MergeQueueEntry>,
): AgentCommand[] {
  const group = 'Agents';
  return [
    { id: 'agents:add', group, label: 'Add agent…', keywords: ['new', 'create'], action: 'add' },
    { id: 'agents:profiles', group, label: 'Agent profiles…', keywords: ['claude', 'codex', 'gemini', 'aider', 'command'], action: 'profiles' },
    ...agents.flatMap((agent, index): AgentCommand[] => {
      const live = isSessionLive(sessions[agent.id]);
      const command = (action: AgentAction, label: string, extra: Pick<PaletteCommand, 'shortcut' | 'keywords'> = {}): AgentCommand => ({
        id: `agent:${agent.id}:${action}`,
        group,
        label,
        action,
        agent,
        ...extra,
      });
      return [
        command('focus', `Focus ${agent.name}`, { shortcut: index < 9 ? ['Alt', String(index + 1)] : undefined, keywords: ['terminal', 'pane'] }),
        live ? command('stop', `Stop ${agent.name}`) : command('start', `Start ${agent.name}`, { keywords: ['resume', 'run'] }),
        ...(live ? [command('restart', `Restart ${agent.name}`)] : []),
        command('inbox', `Open ${agent.name}’s inbox`, { keywords: ['messages', 'note'] }),
        ...(worktrees[agent.id]?.state === 'ready'
          ? [command('changes', `Review ${agent.name}’s changes…`, { keywords: ['diff', 'worktree', 'branch', 'merge'] })]
          : []),
        ...(isInMergeQueue(mergeQueue[agent.id])
          ? [command('unqueue', `Remove ${agent.name} from the merge queue`, { keywords: ['merge', 'queue'] })]
          : worktrees[agent.id]?.state === 'ready'
            ? [command('queue', `Queue ${agent.name} for merge`, { keywords: ['merge', 'queue', 'land', 'branch'] })]
            : []),
        agent.wakesHeld
          ? command('release', `Resume ${agent.name}’s wakes`, { keywords: ['hold', 'release'] })
          : command('hold', `Hold ${agent.name}’s wakes`, { keywords: ['pause', 'wake'] }),
        command('edit', `Edit ${agent.name}…`, { keywords: ['rename', 'role', 'profile'] }),
        command('remove', `Remove ${agent.name}…`, { keywords: ['delete'] }),
      ];
    }),
  ];
}

export const PANE_LAYOUT_NAMES: Readonly<Record<PaneLayout, string>> = { grid: 'Grid', focus: 'Focus', tabs: 'Tabs' };

/** The palette's way to switch the project's pane layout: the layouts not in use. */
export function layoutCommands(current: PaneLayout): (CommandWords & { layout: PaneLayout })[] {
  return PANE_LAYOUTS.filter((layout) => layout !== current).map((layout) => ({
    id: `agents:layout:${layout}`,
    group: 'View',
    label: `Layout: ${PANE_LAYOUT_NAMES[layout]}`,
    keywords: ['panes', 'arrange', 'terminals'],
    layout,
  }));
}
