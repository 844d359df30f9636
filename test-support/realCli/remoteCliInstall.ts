import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SshRemote } from '../sshServer';
import { installedCliPackageDir } from './agentCliBin';

/** Hard links a file the remote user may read (any other user may), on the same file system; false when it cannot. */
function linked(source: string, target: string): boolean {
  if ((fs.statSync(source).mode & 0o004) === 0) return false;
  try {
    fs.linkSync(source, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EXDEV') return false;
    throw error;
  }
}

/** Hard links (else copies, readable) the files of `from` into `to`, its folders made anew. */
function linkTree(from: string, to: string, made: string[]): void {
  fs.mkdirSync(to, { mode: 0o755 });
  made.push(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target, made);
    else if (entry.isSymbolicLink()) {
      fs.symlinkSync(fs.readlinkSync(source), target);
      made.push(target);
    } else if (!linked(source, target)) {
      fs.copyFileSync(source, target);
      fs.chmodSync(target, (fs.statSync(source).mode & 0o777) | 0o444);
    }
  }
}

/**
 * Installs an agent CLI of the suite's set for the remote user, as `npm install --prefix ~/.local`
 * would: its package under `~/.local/lib/node_modules`, its command in `~/.local/bin`. The suite's
 * cache lives in root's home, which that user cannot read. The package's files are hard links to
 * the cache's (root's, world-readable as npm left them; 240 MB are not copied); the folders and
 * links are the user's, so the rest of its `~/.local` stays writable for it. Returns the command's path.
 */
export function installCliForRemote(remote: SshRemote, packageName: string, bin: string): string {
  const source = installedCliPackageDir(packageName);
  const prefix = path.join(remote.home, '.local');
  const made: string[] = [];
  for (const dir of [prefix, path.join(prefix, 'bin'), path.join(prefix, 'lib'), path.join(prefix, 'lib', 'node_modules'), ...(packageName.includes('/') ? [path.join(prefix, 'lib', 'node_modules', path.dirname(packageName))] : [])]) {
    if (!fs.existsSync(dir)) {
      fs.mkdirSync(dir, { mode: 0o755 });
      made.push(dir);
    }
  }
  const packageDir = path.join(prefix, 'lib', 'node_modules', packageName);
  linkTree(source, packageDir, made);
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> };
  const binFile = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin];
  if (!binFile) throw new Error(`${packageName} has no command ${bin}`);
  const command = path.join(prefix, 'bin', bin);
  fs.symlinkSync(path.relative(path.dirname(command), path.join(packageDir, binFile)), command);
  made.push(command);
  // Not the linked files: they are the cache's too.
  execFileSync('chown', ['-h', `${remote.user}:${remote.user}`, ...made]);
  return command;
}
