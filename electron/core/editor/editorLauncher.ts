import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { editorArgv } from '../../../shared/editor';
import { isInside } from '../../../shared/folders';
import { DroverRequestError, fail } from '../errors';

/** How long an editor that failed at once (a bad option, no display) has to say so before it counts as opened. */
const QUICK_FAILURE_MS = 1_500;
const STDERR_TAIL_CHARS = 500;

export interface EditorOpening {
  /** The file asked for (absolute); what opens is its canonical path. */
  file: string;
  line: number;
  column: number;
  /** The editor command's template (the editorCommand setting). */
  template: string;
  /** The folders the file may lie in: the project's and its worktrees'. */
  roots: readonly string[];
  /** The environment the editor starts with (the host's, without its forge tokens). */
  env: NodeJS.ProcessEnv;
}

/** The file canonical and the deepest of `roots` holding it; refused unless it exists, is a file, and lies in one of them (each compared canonical too, so a symlink cannot lead out). */
export function fileInside(file: string, roots: readonly string[]): { file: string; root: string } {
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    fail('not-found', `${file} does not exist.`);
  }
  if (!fs.statSync(real).isFile()) fail('invalid-path', `${file} is not a file.`);
  // The deepest: a worktree may lie inside the project folder.
  const root = roots
    .map(canonical)
    .filter((candidate): candidate is string => candidate !== null && isInside(candidate, real))
    .sort((a, b) => b.length - a.length)[0];
  if (!root) fail('invalid-path', `${file} is outside the project and its worktrees: Drover opens only their files in your editor.`);
  return { file: real, root };
}

function canonical(folder: string): string | null {
  try {
    return fs.realpathSync(folder);
  } catch {
    return null;
  }
}

/**
 * Runs the editor command for the file, as argv without a shell, detached from the host (it
 * outlives a host restart). Resolves once it exited successfully or is still running after a
 * moment; fails, in words, when it cannot start or exits with an error at once.
 */
export async function launchEditor({ file, line, column, template, roots, env }: EditorOpening): Promise<{ file: string; argv: string[] }> {
  if (template === '') fail('invalid-state', 'No editor is set: choose one in Settings → Editor.');
  const inside = fileInside(file, roots);
  const built = editorArgv(template, { file: inside.file, line: String(line), column: String(column) });
  if ('error' in built) fail('invalid-state', built.error);
  await run(built.program, built.args, { cwd: inside.root, env });
  return { file: inside.file, argv: [built.program, ...built.args] };
}

/**
 * The editor's stderr goes to a file, not a pipe: an editor that stays up (a GUI one started
 * directly) must not die of SIGPIPE when it writes after the host stopped reading or went away.
 */
function run(program: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  const stderrDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-editor-'));
  const stderrFile = path.join(stderrDir, 'stderr');
  const stderrFd = fs.openSync(stderrFile, 'w');
  const saidOnStderr = () => {
    const text = fs.readFileSync(stderrFile, 'utf8').trim().slice(-STDERR_TAIL_CHARS);
    return text ? `: ${text}` : '';
  };
  return new Promise<void>((resolve, reject) => {
    const child = spawn(program, args, { ...options, detached: true, stdio: ['ignore', 'ignore', stderrFd] });
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      child.removeAllListeners();
      child.unref();
      outcome();
    };
    const timer = setTimeout(() => settle(resolve), QUICK_FAILURE_MS);
    child.on('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOENT' ? `${program} was not found (PATH: ${options.env.PATH ?? 'empty'})` : error.message;
      settle(() => reject(new DroverRequestError('spawn-failed', `Could not start your editor: ${why}. Check the command in Settings → Editor.`)));
    });
    child.on('exit', (code, signal) => {
      if (code === 0) return settle(resolve);
      const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
      settle(() => reject(new DroverRequestError('spawn-failed', `Your editor (${path.basename(program)}) ${how}${saidOnStderr()}. Check the command in Settings → Editor.`)));
    });
  }).finally(() => {
    // The editor keeps its own descriptor of the file, removed or not.
    fs.closeSync(stderrFd);
    fs.rmSync(stderrDir, { recursive: true, force: true });
  });
}
