import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The page's h1. It takes focus when the page appears with nothing else focused (after following
 * a link, the link is gone), so keyboard and screen-reader users start at the top of the new page.
 */
export function PageHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body) ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} className="page-heading">
      {children}
    </h1>
  );
}
