import fs from 'node:fs';
import path from 'node:path';

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
/** Output quiet for this long: programs have finished what they draw (no sequence half written). */
const QUIET_MS = 200;
/** A file from before records held raw output: it is replayed from its last megabyte. */
const LEGACY_TAIL_BYTES = 1024 * 1024;

const MAGIC = Buffer.from('DROVER-TERMINAL-LOG 1\n');
const HEADER_BYTES = 5;
const KIND_OUTPUT = 0x6f; // 'o'
const KIND_SIZE = 0x73; // 's'
const KIND_SCREEN = 0x53; // 'S'

/** What the file holds: the terminal's output, its size changes, and a screen a rebuild starts from. */
export type LogRecord =
  | { kind: 'output'; data: string }
  | { kind: 'size'; cols: number; rows: number }
  /** The serialized mirror (ScreenMirror.snapshot): written into an empty terminal of cols x rows, it is the terminal at that point. */
  | { kind: 'screen'; cols: number; rows: number; data: string };

export interface RestoredLog {
  /** From the last screen on, in order: replayed, they rebuild the terminal as it was. */
  records: LogRecord[];
  /** Part of the file could not be read (it was damaged): what came after that is gone. */
  damaged: boolean;
}

function record(kind: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header[0] = kind;
  header.writeUInt32BE(payload.length, 1);
  return Buffer.concat([header, payload]);
}

function sizePayload(cols: number, rows: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt16BE(cols, 0);
  payload.writeUInt16BE(rows, 2);
  return payload;
}

function decode(kind: number, payload: Buffer): LogRecord | null {
  if (kind === KIND_OUTPUT) return { kind: 'output', data: payload.toString('utf8') };
  if (payload.length < 4) return null;
  const cols = payload.readUInt16BE(0);
  const rows = payload.readUInt16BE(2);
  if (cols === 0 || rows === 0) return null;
  if (kind === KIND_SIZE) return payload.length === 4 ? { kind: 'size', cols, rows } : null;
  if (kind === KIND_SCREEN) return { kind: 'screen', cols, rows, data: payload.toString('utf8', 4) };
  return null;
}

/** Reads the records of a file's content; `end` is where the readable part ends (a torn or damaged record starts there). */
function parse(content: Buffer): RestoredLog & { end: number } {
  let records: LogRecord[] = [];
  let at = MAGIC.length;
  while (at < content.length) {
    // A record cut short is the last write of a host that died: what it held is lost, nothing else.
    if (at + HEADER_BYTES > content.length) break;
    const length = content.readUInt32BE(at + 1);
    if (at + HEADER_BYTES + length > content.length) break;
    const parsed = decode(content[at] as number, content.subarray(at + HEADER_BYTES, at + HEADER_BYTES + length));
    if (!parsed) return { records, damaged: true, end: at };
    // A rebuild starts from the last screen: what came before it is in it.
    if (parsed.kind === 'screen') records = [];
    records.push(parsed);
    at += HEADER_BYTES + length;
  }
  return { records, damaged: false, end: at };
}

/** A file written before records: its last megabyte, from a line start, as output. */
function legacyTail(content: Buffer): string {
  if (content.length <= LEGACY_TAIL_BYTES) return content.toString('utf8');
  const lineBreak = content.indexOf(0x0a, content.length - LEGACY_TAIL_BYTES);
  return content.subarray(lineBreak >= 0 ? lineBreak + 1 : content.length - LEGACY_TAIL_BYTES).toString('utf8');
}

/** Replaces the file in one step: a crash leaves the old one or the new one, never a mix. */
function replaceFile(file: string, content: Buffer): void {
  const temporary = `${file}.new`;
  const fd = fs.openSync(temporary, 'w', 0o600);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
}

/**
 * An agent terminal on disk, so a restart of the host rebuilds the same terminal: records of its
 * output, of each change of its size (output is drawn at the size it came at), and of its screen
 * (the mirror serialized) that a rebuild starts from. The output comes in the batches the clients
 * get, each written as it is sent, so a host that dies has on disk everything it ever showed. Past
 * a megabyte (and eight screens) since the last screen, the file is rewritten, at a quiet moment,
 * as a new screen and what came after it: the file stays bounded, and is never cut in the middle of
 * what a program drew.
 */
export class ScrollbackLog {
  private fd: number | null = null;
  private quietTimer: NodeJS.Timeout | undefined;
  /** Counts writes, so a quiet check sees whether output came since it was set. */
  private writes = 0;
  /** Bytes written since the last screen. */
  private sinceScreen = 0;
  /** The size of the last screen record. */
  private screenBytes = 0;
  /** While a screen is being made: the records since its point, to follow it in the rewritten file. */
  private sincePoint: Buffer[] | null = null;
  /** A write failed (a full disk): the file misses output, and only a new screen makes it whole again. */
  private missing = false;
  private closed = false;

  private constructor(
    readonly file: string,
    /** Asks for a screen of the terminal as it stands now (see beginRewrite). */
    private readonly onScreenDue: () => void,
    private readonly rewriteAfterBytes: number,
  ) {}

  /**
   * Opens the file (made if missing) and reads what a rebuild replays. A record cut short by a
   * crash is dropped, and so is a damaged part (said in `damaged`); a file of raw output written
   * before records is turned into one.
   */
  static open(file: string, onScreenDue: () => void, rewriteAfterBytes = REWRITE_AFTER_BYTES): { log: ScrollbackLog; restored: RestoredLog } {
    const log = new ScrollbackLog(file, onScreenDue, rewriteAfterBytes);
    let restored: RestoredLog = { records: [], damaged: false };
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const content = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
      if (content.length === 0) {
        fs.writeFileSync(file, MAGIC, { mode: 0o600 });
      } else if (!content.subarray(0, MAGIC.length).equals(MAGIC)) {
        const data = legacyTail(content);
        replaceFile(file, Buffer.concat([MAGIC, record(KIND_OUTPUT, Buffer.from(data))]));
        log.sinceScreen = Buffer.byteLength(data);
        restored = { records: [{ kind: 'output', data }], damaged: false };
      } else {
        const { records, damaged, end } = parse(content);
        if (end < content.length) fs.truncateSync(file, end);
        log.screenBytes = records[0]?.kind === 'screen' ? HEADER_BYTES + 4 + Buffer.byteLength(records[0].data) : 0;
        log.sinceScreen = Math.max(0, end - MAGIC.length - log.screenBytes);
        restored = { records, damaged };
      }
      log.fd = fs.openSync(file, 'a', 0o600);
    } catch {
      // Unreadable or unwritable (a full disk): the terminal starts without its history, and the
      // file is written again from its next screen.
      log.missing = true;
      restored = { records: [], damaged: true };
    }
    return { log, restored };
  }

  /** A batch of output, as the clients were sent it. */
  append(data: string): void {
    this.write(record(KIND_OUTPUT, Buffer.from(data)));
  }

  /** The terminal takes a new size: output after this was drawn at it. */
  resize(cols: number, rows: number): void {
    this.write(record(KIND_SIZE, sizePayload(cols, rows)));
  }

  /**
   * The terminal is being serialized at this point (everything before it was written): what
   * comes after is kept to follow the screen in the rewritten file.
   */
  beginRewrite(): void {
    this.sincePoint = [];
  }

  /** Rewrites the file as `screen` and what came after its point; null (no screen could be made) leaves the file as it is. */
  finishRewrite(screen: { cols: number; rows: number; data: string } | null): void {
    const after = this.sincePoint;
    this.sincePoint = null;
    if (!after || !screen || this.closed) return;
    const screenRecord = record(KIND_SCREEN, Buffer.concat([sizePayload(screen.cols, screen.rows), Buffer.from(screen.data)]));
    const rest = Buffer.concat(after);
    try {
      replaceFile(this.file, Buffer.concat([MAGIC, screenRecord, rest]));
      this.closeFile();
      this.fd = fs.openSync(this.file, 'a', 0o600);
      this.missing = false;
      this.sinceScreen = rest.length;
      this.screenBytes = screenRecord.length;
    } catch {
      // The old file is whole (unless a write failed before): it goes on as it was.
    }
  }

  close(): void {
    clearTimeout(this.quietTimer);
    this.sincePoint = null;
    this.closeFile();
    this.closed = true;
  }

  private write(data: Buffer): void {
    if (this.closed) return;
    this.writes++;
    this.sincePoint?.push(data);
    this.sinceScreen += data.length;
    if (!this.missing && this.fd !== null) {
      try {
        if (fs.writeSync(this.fd, data) !== data.length) this.missing = true;
      } catch {
        // A full disk costs history, never the session; the next screen makes the file whole again.
        this.missing = true;
      }
    }
    if (this.sincePoint) return;
    if (this.sinceScreen > this.rewriteAfter() * REWRITE_AT_ONCE_FACTOR) this.onScreenDue();
    else if (this.screenDue()) this.awaitQuiet();
  }

  private rewriteAfter(): number {
    return Math.max(this.rewriteAfterBytes, this.screenBytes * REWRITE_AFTER_SCREENS);
  }

  /** Time for a new screen: past the size it rewrites at, or while the file misses output. */
  private screenDue(): boolean {
    return this.missing || this.sinceScreen > this.rewriteAfter();
  }

  /** Asks for a screen once no output came for a while. */
  private awaitQuiet(): void {
    if (this.quietTimer) return;
    const seen = this.writes;
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      if (this.closed || this.sincePoint || !this.screenDue()) return;
      if (this.writes === seen) this.onScreenDue();
      else this.awaitQuiet();
    }, QUIET_MS);
    this.quietTimer.unref();
  }

  private closeFile(): void {
    if (this.fd === null) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // Closing what a full disk left half written changes nothing.
    }
    this.fd = null;
  }
}
