import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isSameProcessAlive } from '../core/process/processGroup';

/**
 * `host.json` in the data dir: which process is the data dir's host, written once it holds the lock
 * (see core/storage/dataDirLock.ts) and removed when it stops cleanly. A record whose process is
 * gone was left by a host that crashed.
 */
export const HOST_RECORD_FILE = 'host.json';
/** Where a host started by a client writes its log (a foreground `drover host run` logs to stderr). */
export const HOST_LOG_FILE = 'host.log';

const HostRecordSchema = z.object({
  pid: z.number().int().positive(),
  startTime: z.string().nullable(),
  version: z.string(),
  protocol: z.number().int().nonnegative(),
  startedAt: z.number().int(),
  logFile: z.string(),
});
export type HostRecord = z.infer<typeof HostRecordSchema>;

export function writeHostRecord(dataDir: string, record: HostRecord): void {
  const file = path.join(dataDir, HOST_RECORD_FILE);
  const building = `${file}.${process.pid}`;
  fs.writeFileSync(building, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(building, file);
}

export function readHostRecord(dataDir: string): HostRecord | null {
  try {
    const parsed = HostRecordSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dataDir, HOST_RECORD_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The process the record names is still that process (not a new one that reused its pid). */
export function isRecordedHostAlive(record: HostRecord): boolean {
  return isSameProcessAlive(record.pid, record.startTime);
}

/** Only the host that wrote the record removes it. */
export function removeHostRecord(dataDir: string, pid: number): void {
  if (readHostRecord(dataDir)?.pid === pid) fs.rmSync(path.join(dataDir, HOST_RECORD_FILE), { force: true });
}
