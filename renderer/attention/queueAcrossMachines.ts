import { useMemo } from 'react';
import type { Project } from '../../shared/entities/projects';
import { attentionQueue, byUrgency, type AttentionItem } from '../store/attention';
import type { DroverActions, DroverState } from '../store/droverStore';
import { useAttentionQueue, useProjects } from '../store/hooks';
import { machineLabel, useOtherMachines } from '../store/otherMachines';
import { useDroverActions } from '../store/StoreContext';
import type { EntityMap } from '../store/versioned';
import { openMachinePage } from '../bridge';
import { machineOfPage } from '../transport/machinePage';
import { agentOfItem, goToItem } from './goToItem';

/** One item of the Needs you queue, on whichever machine it is. */
export interface QueueEntry {
  item: AttentionItem;
  /** The machine it is on (null: the serving one). */
  machine: string | null;
  /** On this page's own machine, so going to it stays on this page. */
  here: boolean;
  projectName: string;
  /** The actions of the store that holds it: dismissing it, sending it to its agent. */
  actions: DroverActions;
}

export function entryOf(item: AttentionItem, machine: string | null, here: boolean, projects: EntityMap<Project>, actions: DroverActions): QueueEntry {
  return { item, machine, here, projectName: projects[item.projectId]?.name ?? item.projectId, actions };
}

function entriesOf(items: readonly AttentionItem[], machine: string | null, here: boolean, projects: EntityMap<Project>, actions: DroverActions): QueueEntry[] {
  return items.map((item) => entryOf(item, machine, here, projects, actions));
}

function queueOf(state: DroverState): readonly AttentionItem[] {
  return attentionQueue(state.workStates, state.projects.byId, state.attention.handled);
}

function queueInputsChanged(state: DroverState, previous: DroverState): boolean {
  return state.workStates !== previous.workStates || state.projects !== previous.projects || state.attention !== previous.attention;
}

/**
 * The Needs you queue across every machine this page follows: this page's own items and each other
 * machine's, most urgent first (this page's before another's when equally urgent).
 */
export function useQueueAcrossMachines(): { entries: readonly QueueEntry[]; acrossMachines: boolean } {
  const own = useAttentionQueue();
  const projects = useProjects().byId;
  const actions = useDroverActions();
  const followed = useOtherMachines(queueInputsChanged);
  const entries = useMemo(() => {
    const theirs = followed.flatMap(({ other, state }) => entriesOf(queueOf(state), other.name, false, state.projects.byId, state.actions));
    const mine = entriesOf(own, machineOfPage(), true, projects, actions);
    return [...mine, ...theirs].sort((a, b) => byUrgency(a.item, b.item));
  }, [own, projects, actions, followed]);
  return { entries, acrossMachines: followed.length > 0 };
}

/** Where an entry is: "project" on one machine, "project on box" once several are followed. */
export function entryPlace(entry: QueueEntry, acrossMachines: boolean): string {
  return acrossMachines ? `${entry.projectName} on ${machineLabel(entry.machine)}` : entry.projectName;
}

/** Goes to the item: on this page, or on its machine's page, which opens on it. */
export function goToEntry(entry: QueueEntry): void {
  if (entry.here) return goToItem(entry.item);
  const { item } = entry;
  const agentId = agentOfItem(item);
  const focus = agentId ? { agentId } : 'task' in item ? { taskId: item.task.id } : undefined;
  openMachinePage(entry.machine, focus ? { page: 'project', projectId: item.projectId, focus } : { page: 'project', projectId: item.projectId });
}
