import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * How a pane lays out its header for its width. Measured here rather than with a CSS container
 * query: Chromium sometimes leaves a container's children without boxes (drawn as an empty pane)
 * when a resize flips a query while a sibling pane appears, as going from phone width to a wide
 * window does.
 */
export type PaneWidth = 'narrow' | 'medium' | 'wide';

const NARROW_UP_TO = 400;
const WIDE_FROM = 760;

export function paneWidthOf(width: number): PaneWidth {
  if (width <= NARROW_UP_TO) return 'narrow';
  return width >= WIDE_FROM ? 'wide' : 'medium';
}

/** The pane's width band, which changes state only when the band does (never per pixel of a drag). */
export function usePaneWidth(ref: RefObject<HTMLElement | null>): PaneWidth {
  const [band, setBand] = useState<PaneWidth>('medium');
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      if (element.offsetParent !== null) setBand(paneWidthOf(element.clientWidth));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return band;
}
