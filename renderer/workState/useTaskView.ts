import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import type { Task } from '../../shared/entities/tasks';
import { useWorkState } from '../store/hooks';
import { entitiesOf } from '../store/versioned';
import { countTasks, filterTasks, sortNewestFirst, type TaskFilter } from './taskQuery';
import { usePaintedMark } from './usePaintedMark';

/** The project's tasks as the panel shows them: newest first, counted, filtered and searched, one selected. */
export function useTaskView(projectId: string) {
  const tasksById = useWorkState(projectId, 'tasksById');
  const [filter, setFilter] = useState<TaskFilter>('all');
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const [selectedId, setSelectedId] = useState<string | null>(null);

  const sorted = useMemo(() => sortNewestFirst(entitiesOf(tasksById)), [tasksById]);
  const counts = useMemo(() => countTasks(sorted), [sorted]);
  const visible = useMemo(() => filterTasks(sorted, filter, deferredQuery), [sorted, filter, deferredQuery]);
  usePaintedMark(projectId, tasksById, sorted.length);
  const selectedIndex = Math.max(0, visible.findIndex((task) => task.id === selectedId));

  const select = useCallback((task: Task) => setSelectedId(task.id), []);
  /** Selects the task whatever the filter and search hide. */
  const reveal = useCallback((taskId: string) => {
    setFilter('all');
    setQuery('');
    setSelectedId(taskId);
  }, []);

  return { tasksById, sorted, counts, visible, selectedIndex, selected: visible[selectedIndex], filter, setFilter, query, setQuery, select, reveal };
}
