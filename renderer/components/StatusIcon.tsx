import type { Tone } from '../format/tone';

interface IconShape {
  /** The mark inside the ring. */
  mark: string;
  /** How the ring is drawn when not as a plain circle. */
  ring?: 'dashed' | 'faint' | 'dim';
  /** Work in progress: the mark turns (unless the person asked for reduced motion). */
  spins?: boolean;
}

const WORKING: IconShape = { mark: 'M8 2.5a5.5 5.5 0 0 1 5.5 5.5', ring: 'faint', spins: true };
const DONE: IconShape = { mark: 'M5.2 8.2l2 2 3.6-4' };

/** Each tone has its own shape as well as its own colour, so colour is never the only cue. */
const ICONS: Readonly<Record<Tone, IconShape>> = {
  queued: { mark: 'M8 4.5V8l2.2 1.6', ring: 'dashed' },
  running: WORKING,
  done: DONE,
  failed: { mark: 'M5.8 5.8l4.4 4.4M10.2 5.8l-4.4 4.4' },
  cancelled: { mark: 'M4.2 11.8l7.6-7.6' },
  interrupted: { mark: 'M8 4.8v3.7M8 10.9v.3' },
  starting: { mark: 'M8 2.5v2.2M8 11.3v2.2M2.5 8h2.2M11.3 8h2.2', ring: 'dashed' },
  busy: WORKING,
  ready: DONE,
  'needs-input': { mark: 'M6.4 6.3a1.7 1.7 0 1 1 2.3 1.6c-.5.2-.7.6-.7 1.1M8 10.9v.3' },
  limited: { mark: 'M8 4.8V8l2.2 1.4' },
  exited: { mark: 'M6 6h4v4H6z', ring: 'dim' },
  unknown: { mark: 'M6.4 6.3a1.7 1.7 0 1 1 2.3 1.6c-.5.2-.7.6-.7 1.1M8 10.9v.3', ring: 'dashed' },
};

export function StatusIcon({ tone }: { tone: Tone }) {
  const { mark, ring, spins } = ICONS[tone];
  return (
    <svg className="status-icon" data-tone={tone} viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <circle cx="8" cy="8" r="5.5" className={ring ? `status-icon__ring status-icon__ring--${ring}` : 'status-icon__ring'} />
      <path d={mark} className={spins ? 'status-icon__mark status-icon__mark--spin' : 'status-icon__mark'} />
    </svg>
  );
}
