import { Worker } from 'node:worker_threads';

export interface PatternMatch {
  index: number;
  length: number;
}

export type PatternOutcome = { ok: true; matches: PatternMatch[] } | { ok: false; reason: string };

// The control words shared with the worker: [state, count of matches].
const STARTING = 0;
const IDLE = 1;
const BUSY = 2;
const DONE = 3;
const FAILED = 4;

const MAX_MATCHES = 1000;

/**
 * Runs in the worker: matches with flags 'gm' from the start of the text, like String#matchAll,
 * and stops after an empty match (the callers want no more than that), writing them to shared
 * memory and waking the caller.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const control = new Int32Array(workerData.control);
const found = new Int32Array(workerData.found);
const compiled = new Map();
parentPort.on('message', ({ source, text, max }) => {
  let count = 0;
  let state = ${DONE};
  try {
    let pattern = compiled.get(source);
    if (!pattern) {
      pattern = new RegExp(source, 'gm');
      compiled.set(source, pattern);
    }
    pattern.lastIndex = 0;
    for (let match; count < max && (match = pattern.exec(text)) !== null; ) {
      found[2 * count] = match.index;
      found[2 * count + 1] = match[0].length;
      count++;
      if (match[0].length === 0) break;
    }
  } catch {
    state = ${FAILED};
  }
  Atomics.store(control, 1, count);
  Atomics.store(control, 0, state);
  Atomics.notify(control, 0);
});
Atomics.store(control, 0, ${IDLE});
Atomics.notify(control, 0);
`;

export interface PatternSandboxOptions {
  /** How long one pattern may run on one text before it is stopped and set aside. */
  timeLimitMs?: number;
  /** How long to wait for a fresh worker to start. */
  startupMs?: number;
}

/**
 * Runs regular expressions a person wrote (custom profiles' screen patterns) in a worker thread
 * with a deadline, so a pattern that backtracks catastrophically (`^(a|aa)+$` on a long line)
 * cannot freeze the host. The call is synchronous: the caller waits for the worker on shared
 * memory, at most the time limit; a pattern that runs past it is stopped (the worker is replaced),
 * reported once, and from then on matches nothing without running again.
 */
export class PatternSandbox {
  private worker: Worker | null = null;
  // Fresh for each worker, so a stopped one can never write into its successor's answers.
  private control = new Int32Array(new SharedArrayBuffer(8));
  private found = new Int32Array(new SharedArrayBuffer(MAX_MATCHES * 2 * 4));
  private readonly runaways = new Map<string, string>();
  private readonly runawayListeners = new Set<(source: string, reason: string) => void>();
  private readonly timeLimitMs: number;
  private readonly startupMs: number;

  constructor(options: PatternSandboxOptions = {}) {
    this.timeLimitMs = options.timeLimitMs ?? 250;
    this.startupMs = options.startupMs ?? 10_000;
  }

  /** Every match of `source` (flags 'gm') in `text`, up to `max`, or why there are none to give. */
  matchAll(source: string, text: string, max = MAX_MATCHES): PatternOutcome {
    const setAside = this.runaways.get(source);
    if (setAside !== undefined) return { ok: false, reason: setAside };
    const worker = this.ready();
    if (!worker) return { ok: false, reason: 'the pattern worker did not start' };
    Atomics.store(this.control, 0, BUSY);
    worker.postMessage({ source, text, max: Math.min(max, MAX_MATCHES) });
    if (Atomics.wait(this.control, 0, BUSY, this.timeLimitMs) === 'timed-out') {
      this.stopWorker();
      // The next screen should not wait for a worker to start.
      this.spawn();
      const reason = `the pattern /${source}/ ran longer than ${this.timeLimitMs} ms on one screen; it is no longer used`;
      this.runaways.set(source, reason);
      for (const listener of this.runawayListeners) listener(source, reason);
      return { ok: false, reason };
    }
    if (Atomics.load(this.control, 0) === FAILED) return { ok: false, reason: `/${source}/ is not a valid regular expression` };
    const count = Atomics.load(this.control, 1);
    const matches: PatternMatch[] = [];
    for (let i = 0; i < count; i++) matches.push({ index: this.found[2 * i] as number, length: this.found[2 * i + 1] as number });
    return { ok: true, matches };
  }

  /** Called once for each pattern set aside for running past the time limit. */
  onRunaway(listener: (source: string, reason: string) => void): () => void {
    this.runawayListeners.add(listener);
    return () => this.runawayListeners.delete(listener);
  }

  close(): void {
    this.stopWorker();
  }

  private spawn(): Worker {
    this.control = new Int32Array(new SharedArrayBuffer(8));
    this.found = new Int32Array(new SharedArrayBuffer(MAX_MATCHES * 2 * 4));
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { control: this.control.buffer, found: this.found.buffer } });
    // A worker must not keep the host alive, nor take it down.
    worker.unref();
    worker.on('error', () => {
      if (this.worker === worker) this.stopWorker();
    });
    this.worker = worker;
    return worker;
  }

  private ready(): Worker | null {
    if (!this.worker) this.spawn();
    if (Atomics.load(this.control, 0) === STARTING && Atomics.wait(this.control, 0, STARTING, this.startupMs) === 'timed-out') {
      this.stopWorker();
      return null;
    }
    return this.worker;
  }

  private stopWorker(): void {
    void this.worker?.terminate();
    this.worker = null;
  }
}

/** The host's one sandbox: screen patterns are read from many places, one worker serves them all. */
export const patternSandbox = new PatternSandbox();

/** The matches of a screen pattern; a pattern the sandbox refused (see onRunaway) matches nothing. */
export function findMatches(source: string, text: string, max?: number): PatternMatch[] {
  const outcome = patternSandbox.matchAll(source, text, max);
  return outcome.ok ? outcome.matches : [];
}
