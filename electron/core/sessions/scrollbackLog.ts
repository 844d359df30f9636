import fs from 'node:fs';
import path from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { byteLength, legacyTail, MAGIC, outputRecord, parse, screenRecord, screenRecordBytes, sizeRecord, type RestoredLog, type Screen } from './scrollbackRecords';

/**
 * Past this much since the last screen, and past as many times the last screen's size, the file is
 * rewritten from a new one at the next quiet moment. Serializing a screen costs a few times what
 * parsing as many bytes of output does: measured in screens, a rewrite costs a bounded share of
 * what the output cost.
 */
const REWRITE_AFTER_BYTES = 1024 * 1024;
const REWRITE_AFTER_SCREENS = 8;
/** A flood leaves no quiet moment: past this many times as much, the file is rewritten at once. */
const REWRITE_AT_ONCE_FACTOR = 8;
/**
 * Whatever its screen's size, past this much since the last screen the file is rewritten at once:
 * a scrollback of 10,000 wide lines serializes to megabytes, and the file is read whole at boot.
 */
const MAX_BYTES_SINCE_SCREEN = 16 * 1024 * 1024;
/** Output quiet for this long: programs have finished what they draw (no sequence half written). */
const QUIET_MS = 200;
/**
 * Records wait this long to be written together, in one write off the event loop. A crash loses
 * what had not reached the file, which a rebuild simply lacks: the records of that moment, of a
 * write under way and of those waiting behind it (a slow disk), and, while the file is rewritten,
 * those since the rewrite began.
 */
const WRITE_EVERY_MS = 50;
/**
 * Past this much waiting at once (a flood of output, or a disk that cannot keep up), the file drops
 * it and what follows, and is made whole from the next screen: a flood is pushed out of the
 * scrollback by its own next megabytes, and encoding and writing all of it (to be thrown away at
 * the next rewrite) held the flood bench at 0.41-0.47x of the raw read here (0.62-0.64x once a
 * flood was neither written nor given a screen every few megabytes, see MAX_MISSING_MS).
 */
const MAX_WAITING_BYTES = 1024 * 1024;
/**
 * The file misses output for this long at most: output that never goes quiet gets its screen all the
 * same, and a flood one a second (not every rewriteAtOnce of it: the file does not grow meanwhile).
 */
const MAX_MISSING_MS = 1_000;
/** A rewrite failed (a full disk, no screen): the next waits this long, twice as long after each failure in a row, up to the most. */
const RETRY_REWRITE_MS = 5_000;
const MAX_RETRY_REWRITE_MS = 5 * 60_000;

/** A new file to append to: what a rewrite a crash cut short left there is emptied first. */
const NEW_TO_APPEND = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_APPEND;

/** Writes all of `buffers` at the end of the file, off the event loop. */
async function appendTo(handle: FileHandle, buffers: Buffer[]): Promise<void> {
  const total = byteLength(buffers);
  const { bytesWritten } = await handle.writev(buffers);
  if (bytesWritten !== total) throw new Error(`wrote ${bytesWritten} of ${total} bytes`);
}

/**
 * Makes `content` the file in one step (written to a new file, fsynced, renamed over it): a crash
 * leaves the old file or the new one, never a mix. Answers the new file's handle, open to append:
 * once renamed it is the file, so nothing is left to open (and fail to, out of descriptors) after
 * the old one is gone. A failure removes the new file: it can be megabytes, on a nearly full disk.
 */
async function replaceFile(file: string, content: Buffer[]): Promise<FileHandle> {
  const temporary = `${file}.new`;
  let handle: FileHandle | undefined;
  try {
    handle = await fs.promises.open(temporary, NEW_TO_APPEND, 0o600);
    await appendTo(handle, content);
    await handle.sync();
    await fs.promises.rename(temporary, file);
    return handle;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.promises.unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * The file as it is (made if missing), open to append: `cutTo` drops a record a crash cut short,
 * `start` is what an empty file begins with.
 */
async function openToAppend(file: string, { cutTo, start }: { cutTo?: number; start?: Buffer[] }): Promise<FileHandle> {
  const handle = await fs.promises.open(file, 'a', 0o600);
  try {
    if (cutTo !== undefined) await handle.truncate(cutTo);
    if (start) await appendTo(handle, start);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * An agent terminal on disk, so a restart of the host rebuilds the same terminal: records of its
 * output, of each change of its size (output is drawn at the size it came at), and of its screen
 * (the mirror serialized) that a rebuild starts from. The output comes in the batches the clients
 * get; the records of each moment (WRITE_EVERY_MS) are written together, in order, one write at a
 * time, off the event loop, so a slow disk holds up no agent's stream. Past a megabyte (and eight
 * screens) since the last screen, the file is rewritten, at a quiet moment (past 16 MB at once), as
 * a new screen and what came after it: the file stays bounded (but while rewrites fail: it grows
 * until one succeeds), and is never cut in the middle of what a program drew. A flood is not
 * written as it comes (see MAX_WAITING_BYTES): the file gets a screen of it a second, and a crash in
 * the middle of one rebuilds the terminal as it was at the last (about a second before).
 */
export class ScrollbackLog {
  /** The file, open to append; null until it is opened at boot, and once it is closed. */
  private handle: FileHandle | null = null;
  private quietTimer: NodeJS.Timeout | undefined;
  private writeTimer: NodeJS.Timeout | undefined;
  /** Counts records, so a quiet check sees whether output came since it was set, and a caller of `written` what it waits for. */
  private added = 0;
  /** The records up to this count are in the file (or were dropped, or are in its screen). */
  private settled = 0;
  /** Records not handed to the file yet. */
  private waiting: Buffer[] = [];
  private waitingBytes = 0;
  /** The write or rewrite under way: the next waits for it, so the file takes them in order. */
  private running: Promise<void> | null = null;
  private readonly settledWaiters: { upTo: number; resolve: () => void }[] = [];
  /** Bytes added since the last screen (in the file, or waiting for it). */
  private sinceScreen = 0;
  /** The size of the last screen record. */
  private screenBytes = 0;
  /** From a screen's point until the file is rewritten from it: the records since that point, to follow the screen. */
  private sincePoint: Buffer[] | null = null;
  private sincePointBytes = 0;
  /** Records since the point were dropped (a flood while the screen was made): the rewritten file misses output still. */
  private droppedSincePoint = false;
  /** The screen to rewrite the file from, once the write under way is done. */
  private screenToWrite: Buffer[] | null = null;
  /** No screen is asked for before this (performance.now()): the last rewrite failed. */
  private retryAt = 0;
  private failedRewrites = 0;
  /** Output was dropped (a flood, a full disk): the file misses it, and only a new screen makes it whole again. */
  private missing = false;
  /** When (performance.now()) the file began to miss output. */
  private missingSince = 0;
  /** close was called: nothing more is taken, and what waits is written before the file is closed. */
  private closing = false;

  private constructor(
    readonly file: string,
    /** Asks for a screen of the terminal as it stands now (see beginRewrite). */
    private readonly onScreenDue: () => void,
    private readonly rewriteAfterBytes: number,
  ) {}

  /**
   * Reads what a rebuild replays, and opens the file (made if missing) to append, off the event
   * loop: records added meanwhile wait for it. A record cut short by a crash is dropped, and so is a
   * damaged part (said in `damaged`); a file of raw output written before records is turned into one.
   */
  static open(file: string, onScreenDue: () => void, rewriteAfterBytes = REWRITE_AFTER_BYTES): { log: ScrollbackLog; restored: RestoredLog } {
    const log = new ScrollbackLog(file, onScreenDue, rewriteAfterBytes);
    let restored: RestoredLog;
    let opening: Promise<FileHandle>;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const content = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
      if (content.length === 0) {
        opening = openToAppend(file, { start: [MAGIC] });
        restored = { records: [], damaged: false };
      } else if (!content.subarray(0, MAGIC.length).equals(MAGIC)) {
        const data = legacyTail(content);
        opening = replaceFile(file, [MAGIC, ...outputRecord(data)]);
        log.sinceScreen = Buffer.byteLength(data);
        restored = { records: [{ kind: 'output', data }], damaged: false };
      } else {
        const { records, damaged, end } = parse(content);
        opening = openToAppend(file, { cutTo: end < content.length ? end : undefined });
        log.screenBytes = records[0]?.kind === 'screen' ? screenRecordBytes(records[0].data) : 0;
        log.sinceScreen = Math.max(0, end - MAGIC.length - log.screenBytes);
        restored = { records, damaged };
      }
    } catch {
      // Unreadable (or its folder cannot be made): the terminal starts without its history, and the
      // file is written again from its next screen. One that cannot be written to is read all the same.
      log.missing = true;
      return { log, restored: { records: [], damaged: true } };
    }
    log.run(log.start(opening));
    return { log, restored };
  }

  /** A batch of output, as the clients were sent it (encoded once, here). */
  append(data: string): void {
    this.add(data.length, () => outputRecord(data));
  }

  /** The terminal takes a new size: output after this was drawn at it. */
  resize(cols: number, rows: number): void {
    this.add(0, () => sizeRecord(cols, rows));
  }

  /**
   * The terminal is being serialized at this point (everything before it was added): what comes
   * after is kept to follow the screen in the rewritten file.
   */
  beginRewrite(): void {
    this.sincePoint = [];
    this.sincePointBytes = 0;
    this.droppedSincePoint = false;
  }

  /**
   * Rewrites the file as `screen` and what came after its point, once the write under way is
   * done; output that comes meanwhile follows it. null (no screen could be made) leaves the file as
   * it is, and so does a failed rewrite; either way the next one waits a while.
   */
  finishRewrite(screen: Screen | null): void {
    if (!this.sincePoint || this.closing) return;
    if (!screen) {
      this.sincePoint = null;
      this.backOff();
      return;
    }
    this.screenToWrite = screenRecord(screen);
    this.pump();
  }

  /** Output was dropped since the last screen (a flood, a full disk): only a screen puts it in the file. */
  get missesOutput(): boolean {
    return this.missing;
  }

  /** Resolves once everything added so far is in the file (or was dropped: a flood, a full disk). */
  written(): Promise<void> {
    if (this.settled >= this.added) return Promise.resolve();
    const upTo = this.added;
    return new Promise((resolve) => {
      this.settledWaiters.push({ upTo, resolve });
      this.pump();
    });
  }

  /**
   * Writes what waits (after the write under way; a rewrite not begun yet is left: the file is whole
   * without it), then closes the file: resolves once it is closed. A file that misses output is
   * rewritten from `lastScreen` (the terminal as it stands, all output added), if there is one.
   */
  async close(lastScreen: Screen | null = null): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearTimeout(this.quietTimer);
    clearTimeout(this.writeTimer);
    this.sincePoint = null;
    this.screenToWrite = null;
    while (this.running) await this.running;
    if (this.missing && lastScreen) {
      // The last screen holds everything: nothing after its point was dropped.
      this.droppedSincePoint = false;
      await this.rewrite(screenRecord(lastScreen));
    }
    const handle = this.handle;
    this.handle = null;
    if (handle && this.waiting.length > 0 && !this.missing) await this.appendWaiting(handle);
    await handle?.close().catch(() => undefined);
    this.settle(this.added);
  }

  /**
   * A record (`size`: about its bytes), encoded only if it is kept: while the file misses output, only
   * what follows a screen's point is, up to MAX_WAITING_BYTES, so a flood costs no encoding.
   */
  private add(size: number, encode: () => Buffer[]): void {
    if (this.closing) return;
    this.added++;
    const keptSincePoint = this.sincePoint !== null && !this.droppedSincePoint;
    const buffers = !this.missing || keptSincePoint ? encode() : [];
    const bytes = buffers.length > 0 ? byteLength(buffers) : size;
    this.sinceScreen += bytes;
    if (keptSincePoint) {
      if (this.sincePointBytes + bytes > MAX_WAITING_BYTES) {
        this.droppedSincePoint = true;
      } else {
        this.sincePoint?.push(...buffers);
        this.sincePointBytes += bytes;
      }
    }
    if (this.missing) {
      this.settle(this.added);
    } else if (this.waitingBytes + bytes > MAX_WAITING_BYTES) {
      this.dropWaiting();
    } else {
      this.waiting.push(...buffers);
      this.waitingBytes += bytes;
      this.awaitMoment();
    }
    this.askForScreenIfDue();
  }

  /** Starts the next write (a rewrite first), unless one is under way: it starts the next when it ends. */
  private pump(): void {
    if (this.running || this.closing) return;
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    if (this.screenToWrite) this.run(this.rewrite(this.screenToWrite));
    else if (this.waiting.length > 0 && this.handle && !this.missing) this.run(this.appendWaiting(this.handle));
  }

  /** Writes what waits once the moment has passed (or, if a write is under way then, once it ends). */
  private awaitMoment(): void {
    this.writeTimer ??= setTimeout(() => {
      this.writeTimer = undefined;
      this.pump();
    }, WRITE_EVERY_MS);
  }

  private run(write: Promise<void>): void {
    this.running = write.then(() => {
      this.running = null;
      // Someone waits for the file (see written): no need to wait for the moment to pass.
      if (this.settledWaiters.length > 0 || this.screenToWrite) this.pump();
      else if (this.waiting.length > 0 && !this.closing) this.awaitMoment();
    });
  }

  /** The file is open (what waits goes to it), or could not be (a full disk: it is made again from the next screen). */
  private async start(opening: Promise<FileHandle>): Promise<void> {
    try {
      this.handle = await opening;
    } catch {
      this.dropWaiting();
    }
  }

  private async appendWaiting(handle: FileHandle): Promise<void> {
    const buffers = this.waiting;
    const upTo = this.added;
    this.waiting = [];
    this.waitingBytes = 0;
    try {
      await appendTo(handle, buffers);
    } catch {
      // A full disk costs history, never the session; the next screen makes the file whole again.
      this.dropWaiting();
    }
    this.settle(upTo);
  }

  /**
   * The file becomes the screen and the records since its point, and the new file's handle the one
   * appended to; the records that come while it is written follow it once it is in place (until
   * then they are only here). Until then the old file is the file (a crash meanwhile loses nothing
   * of it), and if the rewrite fails it goes on as it was.
   */
  private async rewrite(screen: Buffer[]): Promise<void> {
    const after = this.sincePoint ?? [];
    this.screenToWrite = null;
    const included = after.length;
    const upTo = this.added;
    try {
      const handle = await replaceFile(this.file, [MAGIC, ...screen, ...after]);
      const old = this.handle;
      this.handle = handle;
      await old?.close().catch(() => undefined);
      // Whatever waited for the old file is in the screen or in the new file, but what came since
      // (which waits for the new one, unless records after the point were dropped: then it misses them).
      const rest = this.droppedSincePoint ? [] : after.slice(included);
      this.waiting = rest;
      this.waitingBytes = byteLength(rest);
      this.missing = this.droppedSincePoint;
      if (this.missing) this.missingSince = performance.now();
      this.sinceScreen = byteLength(after);
      this.screenBytes = byteLength(screen);
      this.failedRewrites = 0;
      this.settle(this.missing ? this.added : upTo);
    } catch {
      // The old file is whole (unless a write failed before): it goes on as it was.
      this.backOff();
    } finally {
      this.sincePoint = null;
    }
    // Still missing output: the next screen is due, even if nothing more comes.
    if (this.missing && !this.closing) this.askForScreenIfDue();
  }

  private settle(upTo: number): void {
    this.settled = Math.max(this.settled, upTo);
    for (let i = this.settledWaiters.length - 1; i >= 0; i--) {
      const waiter = this.settledWaiters[i] as { upTo: number; resolve: () => void };
      if (waiter.upTo > this.settled) continue;
      this.settledWaiters.splice(i, 1);
      waiter.resolve();
    }
  }

  private dropWaiting(): void {
    if (!this.missing) this.missingSince = performance.now();
    this.missing = true;
    this.waiting = [];
    this.waitingBytes = 0;
    this.settle(this.added);
  }

  /** A rewrite failed: asking again at once would serialize the whole terminal for every batch of a flood. */
  private backOff(): void {
    this.failedRewrites++;
    this.retryAt = performance.now() + Math.min(MAX_RETRY_REWRITE_MS, RETRY_REWRITE_MS * 2 ** (this.failedRewrites - 1));
  }

  /**
   * A file that grows past rewriteAtOnce is rewritten at once; one that misses output (and so does
   * not grow) gets its screen at the next quiet moment, a second later at most.
   */
  private askForScreenIfDue(): void {
    if (this.sincePoint || performance.now() < this.retryAt) return;
    if (this.sinceScreen > this.rewriteAtOnce() && !this.missing) this.onScreenDue();
    else if (this.screenDue()) this.awaitQuiet();
  }

  private rewriteAfter(): number {
    return Math.min(MAX_BYTES_SINCE_SCREEN, Math.max(this.rewriteAfterBytes, this.screenBytes * REWRITE_AFTER_SCREENS));
  }

  private rewriteAtOnce(): number {
    return Math.min(MAX_BYTES_SINCE_SCREEN, this.rewriteAfter() * REWRITE_AT_ONCE_FACTOR);
  }

  /** Time for a new screen: past the size it rewrites at, or while the file misses output. */
  private screenDue(): boolean {
    return this.missing || this.sinceScreen > this.rewriteAfter();
  }

  /** Asks for a screen once no output came for a while (or the file has missed output for too long). */
  private awaitQuiet(): void {
    if (this.quietTimer) return;
    const seen = this.added;
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      if (this.closing || this.sincePoint || performance.now() < this.retryAt || !this.screenDue()) return;
      if (this.added === seen || (this.missing && performance.now() - this.missingSince >= MAX_MISSING_MS)) this.onScreenDue();
      else this.awaitQuiet();
    }, QUIET_MS);
    this.quietTimer.unref();
  }
}
