import v8 from 'node:v8';
import vm from 'node:vm';

const MB = 1024 * 1024;
/** How often the host looks at its old space. */
const LOOK_EVERY_MS = 5_000;
/** Garbage worth a full collection: this much more old space in use than after the last one. */
const RECLAIM_PAST_BYTES = 32 * MB;
/** Old space that grew less than this between two looks: the host has gone quiet. */
const QUIET_GROWTH_BYTES = 1 * MB;

/**
 * When the host collects its garbage itself. V8 collects the old space only as it nears a limit
 * that grows with the heap, and runs no collection in a process that went quiet: after a terminal
 * flood the host kept its garbage for as long as it stayed idle (measured: 243 MB resident with
 * 20 idle agents after four 100 MB floods, 146 MB after one full collection). Once the old space
 * holds RECLAIM_PAST_BYTES more than after the last collection and has stopped growing, it is
 * collected. While agents print, V8 is left to collect as it does: a full collection forced then
 * would stop the event loop (keystrokes, the stream) for what V8 does mostly beside it.
 */
export class HeapReclaimPolicy {
  /** Old space in use after the last full collection (or lower, once V8 collected by itself). */
  private floor: number | null = null;
  private previous = 0;

  /** `used`: the old space in use now. Answers whether to collect now. */
  look(used: number): boolean {
    const growth = used - this.previous;
    this.previous = used;
    this.floor = Math.min(this.floor ?? used, used);
    return used - this.floor > RECLAIM_PAST_BYTES && growth < QUIET_GROWTH_BYTES;
  }

  /** A full collection left `used` in the old space. */
  collected(used: number): void {
    this.floor = used;
    this.previous = used;
  }
}

/**
 * How far the old space may grow past what the last full collection left in it, in percent.
 * Without it V8 picks the growth itself, up to four times what is held, and the more the slower the
 * program allocates: a host with 40 steady agents let its old space grow to twice its 65 MB, and
 * the ArrayBuffers that died in it (the mirrors' rows, 1.4 kB each) stayed in malloc's heap until
 * a collection, and malloc kept the 117 MB that peak took. Measured over a 3-minute soak of 40
 * agents printing 50 lines/s: RSS 360 MB by V8's choice, 207 to 224 MB at 20 to 50 percent, the
 * host's CPU the same. Not lower: at 30 percent a 100 MB flood cost the host a quarter more CPU
 * (more full collections), at 50 the same as V8's choice.
 */
const HEAP_GROWING_PERCENT = 50;

/** Keeps the host's heap within HEAP_GROWING_PERCENT of what it holds; V8 reads it at each collection, so it may be set at any time. */
export function boundHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

function oldSpaceUsed(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0;
}

/**
 * A full collection on demand, that gives the memory it frees back to the system. Node offers none
 * but with --expose-gc, which a host started by any launcher (the CLI's, the desktop's Electron run
 * as Node) cannot count on: the flag is set here, and a new context gets the `gc` it installs. V8
 * keeps the pages a collection freed for its next one: the second collection unmaps them (measured
 * on 250 MB of garbage: 356 MB resident, 273 after one collection, 82 after the second).
 */
export function fullCollection(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

/**
 * Collects the host's garbage as HeapReclaimPolicy says, until the returned function stops it. A
 * runtime that will not hand out `gc` leaves the host to V8's own collections, saying so: the host
 * runs either way.
 */
export function reclaimHeapWhenQuiet(log: (line: string) => void): () => void {
  let collect: () => void;
  try {
    collect = fullCollection();
  } catch (error) {
    log(`the host leaves its garbage to V8: no full collection on demand here (${error instanceof Error ? error.message : String(error)})`);
    return () => {};
  }
  const policy = new HeapReclaimPolicy();
  const timer = setInterval(() => {
    if (!policy.look(oldSpaceUsed())) return;
    collect();
    policy.collected(oldSpaceUsed());
  }, LOOK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
