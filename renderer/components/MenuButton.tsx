import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface MenuAction {
  label: string;
  run(): void;
  /** Shown in the danger colour: it removes something. */
  danger?: boolean;
}

interface MenuButtonProps {
  /** The button's accessible name, and its tooltip. */
  label: string;
  icon: ReactNode;
  actions: readonly MenuAction[];
}

interface MenuPlace {
  top: number;
  right: number;
}

/**
 * A button that opens a menu of actions (the WAI-ARIA menu button): arrow keys, Home and End move
 * among the items, Enter picks one, Escape closes it and hands focus back to the button. The menu is
 * placed over the page (fixed), so that a short pane does not clip it.
 */
export function MenuButton({ label, icon, actions }: MenuButtonProps) {
  const [place, setPlace] = useState<MenuPlace | null>(null);
  const [active, setActive] = useState(0);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const menuId = useId();
  const open = place !== null;

  function openAt(first: 'first' | 'last'): void {
    const box = buttonRef.current?.getBoundingClientRect();
    if (!box) return;
    setActive(first === 'first' ? 0 : actions.length - 1);
    setPlace({ top: box.bottom + 2, right: window.innerWidth - box.right });
  }

  function close(refocus: boolean): void {
    setPlace(null);
    if (refocus) buttonRef.current?.focus();
  }

  useLayoutEffect(() => {
    if (open) items.current[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setPlace(null);
    };
    const closeOnResize = () => setPlace(null);
    document.addEventListener('pointerdown', closeOutside);
    window.addEventListener('resize', closeOnResize);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      window.removeEventListener('resize', closeOnResize);
    };
  }, [open]);

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    openAt(event.key === 'ArrowDown' ? 'first' : 'last');
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    const last = actions.length - 1;
    const moves: Record<string, number> = { ArrowDown: active === last ? 0 : active + 1, ArrowUp: active === 0 ? last : active - 1, Home: 0, End: last };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      setActive(next);
    } else if (event.key === 'Escape') {
      // Escape closes the menu and nothing else (a dialog the menu sits in stays open).
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  }

  function pick(action: MenuAction): void {
    close(true);
    action.run();
  }

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="button button--ghost button--icon"
        aria-label={label}
        title={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt('first'))}
        onKeyDown={onButtonKeyDown}
      >
        {icon}
      </button>
      {place && (
        <div ref={menuRef} id={menuId} role="menu" aria-label={label} className="menu" style={{ top: place.top, right: place.right }} onKeyDown={onMenuKeyDown}>
          {actions.map((action, index) => (
            <button
              key={action.label}
              ref={(item) => {
                items.current[index] = item;
              }}
              type="button"
              role="menuitem"
              tabIndex={index === active ? 0 : -1}
              className={action.danger ? 'menu__item menu__item--danger' : 'menu__item'}
              onClick={() => pick(action)}
              onPointerMove={() => setActive(index)}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </>
  );
}
