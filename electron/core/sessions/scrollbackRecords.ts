/**
 * The scrollback file's format: a magic line, then records, each a kind byte, a 32-bit length and
 * its payload: a batch of output, a change of size, or a screen (the mirror serialized) that a
 * rebuild starts from. A record is written from its parts (see record), never copied into one.
 */

/** A file from before records held raw output: it is replayed from its last megabyte. */
const LEGACY_TAIL_BYTES = 1024 * 1024;

export const MAGIC = Buffer.from('DROVER-TERMINAL-LOG 1\n');
const HEADER_BYTES = 5;
const KIND_OUTPUT = 0x6f; // 'o'
const KIND_SIZE = 0x73; // 's'
const KIND_SCREEN = 0x53; // 'S'

/** The serialized mirror (ScreenMirror.snapshot): written into an empty terminal of cols x rows, it is the terminal at that point. */
export interface Screen {
  cols: number;
  rows: number;
  data: string;
}

/** What the file holds: the terminal's output, its size changes, and a screen a rebuild starts from. */
export type LogRecord = { kind: 'output'; data: string } | { kind: 'size'; cols: number; rows: number } | ({ kind: 'screen' } & Screen);

export interface RestoredLog {
  /** From the last screen on, in order: replayed, they rebuild the terminal as it was. */
  records: LogRecord[];
  /** Part of the file could not be read (it was damaged): what came after that is gone. */
  damaged: boolean;
}

/** A record as the buffers it is written from: its header, then its payload's parts (never copied into one). */
function record(kind: number, ...payload: Buffer[]): Buffer[] {
  const header = Buffer.alloc(HEADER_BYTES);
  header[0] = kind;
  header.writeUInt32BE(byteLength(payload), 1);
  return [header, ...payload];
}

export function byteLength(buffers: readonly Buffer[]): number {
  let total = 0;
  for (const buffer of buffers) total += buffer.length;
  return total;
}

function sizePayload(cols: number, rows: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt16BE(cols, 0);
  payload.writeUInt16BE(rows, 2);
  return payload;
}

export const outputRecord = (data: string): Buffer[] => record(KIND_OUTPUT, Buffer.from(data));
export const sizeRecord = (cols: number, rows: number): Buffer[] => record(KIND_SIZE, sizePayload(cols, rows));
export const screenRecord = ({ cols, rows, data }: Screen): Buffer[] =>
  record(KIND_SCREEN, sizePayload(cols, rows), Buffer.from(data));

/** The bytes a screen record of `data` takes in the file. */
export const screenRecordBytes = (data: string): number => HEADER_BYTES + 4 + Buffer.byteLength(data);

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
export function parse(content: Buffer): RestoredLog & { end: number } {
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
export function legacyTail(content: Buffer): string {
  if (content.length <= LEGACY_TAIL_BYTES) return content.toString('utf8');
  const lineBreak = content.indexOf(0x0a, content.length - LEGACY_TAIL_BYTES);
  return content.subarray(lineBreak >= 0 ? lineBreak + 1 : content.length - LEGACY_TAIL_BYTES).toString('utf8');
}

