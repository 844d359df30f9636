import type { Tone } from '../format/tone';
import { StatusIcon } from './StatusIcon';

export interface CountBadge {
  tone: Tone;
  count: number;
  /** What the badge shows. */
  text: string;
  /** What it says to assistive technology: the count spelled out. */
  name: string;
  title?: string;
}

/** Small status badges for counts; a badge whose count is zero is left out, and so is an empty row. */
export function CountBadges({ badges, className }: { badges: readonly CountBadge[]; className: string }) {
  const shown = badges.filter((badge) => badge.count > 0);
  if (shown.length === 0) return null;
  return (
    <span className={className}>
      {shown.map((badge) => (
        <span key={badge.tone} role="img" aria-label={badge.name} title={badge.title} className="pill pill--icon" data-tone={badge.tone}>
          <StatusIcon tone={badge.tone} />
          {badge.text}
        </span>
      ))}
    </span>
  );
}
