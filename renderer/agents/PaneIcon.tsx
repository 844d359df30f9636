const PATHS = {
  start: 'M5 3.5v9l7-4.5z',
  stop: 'M4.5 4.5h7v7h-7z',
  restart: 'M12.5 8a4.5 4.5 0 1 1-1.3-3.2M12.5 3v2.5H10',
  maximise: 'M3 6V3h3M10 3h3v3M13 10v3h-3M6 13H3v-3',
  restore: 'M6 3v3H3M13 6h-3V3M10 13v-3h3M3 10h3v3',
  edit: 'M3 13l.6-2.6L10.5 3.5l2 2-6.9 6.9zM9.3 4.7l2 2',
  remove: 'M3.5 4.5h9M6.5 4.5V3h3v1.5M5 4.5l.6 8.5h4.8l.6-8.5',
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
