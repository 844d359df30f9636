import fs from 'node:fs';
import path from 'node:path';

/** Beyond this many folders a worktree is watched only in part (each folder costs an inotify watch). */
const MAX_WATCHED_FOLDERS = 8_000;

export interface FolderWatcherOptions {
  /** The tree to watch, folder by folder. */
  root: string;
  /** Folders outside the tree watched on their own, not recursively (a worktree's git dir: HEAD, index). */
  extraFolders: readonly string[];
  /** Folders of the tree (relative, ending in '/') not to watch: `.git`, and those git ignores. */
  skip(relativeFolder: string): boolean;
  debounceMs: number;
  onChange(): void;
}

function isFolder(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Watches a tree for changes, one non-recursive watch per folder so that ignored folders
 * (node_modules, build output) cost nothing, adding folders as they appear; many changes in a row
 * call `onChange` once, after a quiet moment.
 */
export class FolderWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: FolderWatcherOptions) {
    this.watchTree('');
    for (const folder of options.extraFolders) this.watch(folder, () => this.changed());
  }

  get watchedFolders(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private watchTree(relative: string): void {
    const absolute = path.join(this.options.root, relative).replace(/\/$/, '') || '/';
    if (this.closed || this.watchers.has(absolute) || this.watchers.size >= MAX_WATCHED_FOLDERS) return;
    if (!this.watch(absolute, (name) => this.onEvent(relative, name))) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absolute, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = `${relative}${entry.name}/`;
      if (entry.isDirectory() && !this.options.skip(child)) this.watchTree(child);
    }
  }

  private watch(folder: string, onName: (name: string | null) => void): boolean {
    try {
      const watcher = fs.watch(folder, { persistent: false }, (_event, name) => onName(name === null ? null : String(name)));
      watcher.on('error', () => {
        watcher.close();
        this.watchers.delete(folder);
      });
      this.watchers.set(folder, watcher);
      return true;
    } catch {
      return false;
    }
  }

  private onEvent(relative: string, name: string | null): void {
    if (name !== null) {
      const child = `${relative}${name}/`;
      if (this.options.skip(child)) return;
      // A new folder: watch it (and whatever was made in it before the watch began).
      const absolute = path.join(this.options.root, relative, name);
      if (!this.watchers.has(absolute) && isFolder(absolute)) this.watchTree(child);
    }
    this.changed();
  }

  private changed(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.options.onChange(), this.options.debounceMs);
  }
}
