import { useEffect, useId, useRef, type ReactNode } from 'react';

interface OptionListProps<T> {
  label: string;
  items: readonly T[];
  keyOf(item: T): string;
  /** The selected item's index; -1 for none. */
  selected: number;
  onSelect(index: number): void;
  /** The list's class; each item gets `<className>__item` (and `__item--selected`). */
  className: string;
  /** Takes the focus when it mounts (a view whose keys start there). */
  autoFocus?: boolean;
  titleOf?(item: T): string | undefined;
  children(item: T): ReactNode;
}

/**
 * A list of choices as one focusable listbox: arrow keys move the selection, which stays in view,
 * and a click picks an item.
 */
export function OptionList<T>({ label, items, keyOf, selected, onSelect, className, autoFocus = false, titleOf, children }: OptionListProps<T>) {
  const baseId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const optionId = (index: number) => `${baseId}-option-${index}`;

  useEffect(() => {
    if (autoFocus) listRef.current?.focus();
  }, [autoFocus]);

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  return (
    <ul
      ref={listRef}
      role="listbox"
      aria-label={label}
      tabIndex={0}
      aria-activedescendant={selected >= 0 && selected < items.length ? optionId(selected) : undefined}
      className={className}
      onKeyDown={(event) => {
        const next = event.key === 'ArrowDown' ? selected + 1 : event.key === 'ArrowUp' ? selected - 1 : null;
        if (next === null || next < 0 || next >= items.length) return;
        event.preventDefault();
        onSelect(next);
      }}
    >
      {items.map((item, index) => (
        <li
          key={keyOf(item)}
          id={optionId(index)}
          data-index={index}
          role="option"
          aria-selected={index === selected}
          className={`${className}__item ${index === selected ? `${className}__item--selected` : ''}`}
          title={titleOf?.(item)}
          onClick={() => onSelect(index)}
        >
          {children(item)}
        </li>
      ))}
    </ul>
  );
}
