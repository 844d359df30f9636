/**
 * The tones a status can take. A tone picks both the colours (the `[data-tone]` rules of
 * styles.css) and the icon shape (`StatusIcon`), so colour is never the only cue.
 */
export type TaskTone = 'queued' | 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';
export type AgentTone = 'starting' | 'busy' | 'ready' | 'needs-input' | 'limited' | 'exited';
/** Not connected to the host: what a task or agent does now is not known. */
export type Tone = TaskTone | AgentTone | 'unknown';

/** A status as a badge shows it: its words, its tone, and extra words after the badge. */
export interface Status<T extends Tone = Tone> {
  label: string;
  tone: T;
  detail?: string | null;
}

/** What a state reads while the page is not connected to the host. */
export const UNKNOWN_STATUS: Status<'unknown'> = { label: 'Unknown', tone: 'unknown', detail: null };
