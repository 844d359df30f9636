import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fail } from '../errors';

/** A worktree gets DROVER_PORT … DROVER_PORT+9. */
export const PORT_BLOCK_SIZE = 10;

export interface PortRange {
  /** First port of the first block. */
  first: number;
  blocks: number;
}

/** Above the usual dev-server ports and below Linux's ephemeral range (32768…). */
export const DEFAULT_PORT_RANGE: PortRange = { first: 20_000, blocks: 1_000 };

/** Who holds a block: a worktree folder, as long as it exists. */
export interface PortHolder {
  folder: string;
  projectId: string;
  agentId: string;
}

function readHolder(file: string): PortHolder | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<PortHolder>;
    return typeof parsed.folder === 'string' ? (parsed as PortHolder) : null;
  } catch {
    return null;
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Blocks of ten ports, each held by at most one live worktree on the machine: every Drover (any
 * data dir) leases blocks through one folder of lease files, created exclusively (O_EXCL). A lease
 * whose worktree folder no longer exists is stale and may be taken over; a block some other program
 * listens on right now is skipped.
 */
export class PortBlocks {
  constructor(
    private readonly dir: string,
    private readonly range: PortRange = DEFAULT_PORT_RANGE,
  ) {}

  async claim(holder: PortHolder): Promise<number> {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    for (let index = 0; index < this.range.blocks; index++) {
      const base = this.range.first + index * PORT_BLOCK_SIZE;
      if (!this.lease(base, holder)) continue;
      const ports = Array.from({ length: PORT_BLOCK_SIZE }, (_, offset) => base + offset);
      if ((await Promise.all(ports.map(portFree))).every(Boolean)) return base;
      this.release(base, holder.folder);
    }
    const last = this.range.first + this.range.blocks * PORT_BLOCK_SIZE - 1;
    fail('invalid-state', `No block of ${PORT_BLOCK_SIZE} free ports is left between ${this.range.first} and ${last}: every one is held by a live worktree or in use.`);
  }

  /** Gives the block back, if `folder` still holds it. */
  release(base: number, folder: string): void {
    const file = this.file(base);
    if (readHolder(file)?.folder === folder) fs.rmSync(file, { force: true });
  }

  /**
   * At boot: `folder` keeps its block if it still holds it or nobody live does (the lease is
   * written again); false when another live worktree took it over meanwhile.
   */
  keep(base: number, holder: PortHolder): boolean {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const current = readHolder(this.file(base));
    if (current?.folder === holder.folder) return true;
    return this.lease(base, holder);
  }

  /** Takes the lease file of a block unless a live worktree holds it. */
  private lease(base: number, holder: PortHolder): boolean {
    const file = this.file(base);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        fs.writeFileSync(file, JSON.stringify({ ...holder, at: new Date().toISOString() }), { flag: 'wx', mode: 0o600 });
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const current = readHolder(file);
      if (current && fs.existsSync(current.folder)) return false;
      // Stale (its worktree is gone) or unreadable: take it over.
      fs.rmSync(file, { force: true });
    }
    return false;
  }

  private file(base: number): string {
    return path.join(this.dir, `${base}.json`);
  }
}

/** What a process in the worktree finds in its environment. */
export function portEnv(portBase: number | null): Record<string, string> {
  return portBase === null ? {} : { DROVER_PORT: String(portBase), DROVER_PORT_COUNT: String(PORT_BLOCK_SIZE) };
}
