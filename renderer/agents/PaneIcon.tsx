const PATHS = {
  start: 'M5 3.5v9l7-4.5z',
  stop: 'M4.5 4.5h7v7h-7z',
  maximise: 'M3 6V3h3M10 3h3v3M13 10v3h-3M6 13H3v-3',
  restore: 'M6 3v3H3M13 6h-3V3M10 13v-3h3M3 10h3v3',
  more: 'M2.75 8a.75.75 0 1 0 1.5 0a.75.75 0 1 0-1.5 0M7.25 8a.75.75 0 1 0 1.5 0a.75.75 0 1 0-1.5 0M11.75 8a.75.75 0 1 0 1.5 0a.75.75 0 1 0-1.5 0',
} as const;

/** Small line icons for pane controls; the button around each carries the accessible name. */
export function PaneIcon({ name }: { name: keyof typeof PATHS }) {
  return (
    <svg className="pane-icon" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}
