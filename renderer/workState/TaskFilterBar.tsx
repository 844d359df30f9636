import type { Ref } from 'react';
import { TASK_FILTER_LABELS, TASK_FILTERS, type TaskFilter } from './taskQuery';
import { countOf } from '../../shared/plural';

interface TaskFilterBarProps {
  filter: TaskFilter;
  onFilterChange(filter: TaskFilter): void;
  query: string;
  onQueryChange(query: string): void;
  searchRef: Ref<HTMLInputElement>;
  shownCount: number;
}

export function TaskFilterBar({ filter, onFilterChange, query, onQueryChange, searchRef, shownCount }: TaskFilterBarProps) {
  return (
    <div className="task-filter-bar">
      <div role="radiogroup" aria-label="Show tasks" className="segmented">
        {TASK_FILTERS.map((value) => (
          <label key={value} className="segmented__option">
            <input
              type="radio"
              name="task-filter"
              value={value}
              checked={filter === value}
              onChange={() => onFilterChange(value)}
            />
            <span>{TASK_FILTER_LABELS[value]}</span>
          </label>
        ))}
      </div>
      <input
        ref={searchRef}
        type="search"
        className="text-input task-filter-bar__search"
        aria-label="Search tasks"
        placeholder="Search command, label or agent  /"
        value={query}
        onChange={(event) => onQueryChange(event.target.value)}
        spellCheck={false}
        autoComplete="off"
      />
      <span className="task-filter-bar__count" aria-live="polite">
        {countOf(shownCount, 'task')}
      </span>
    </div>
  );
}
