import fs from 'node:fs';
import path from 'node:path';

/** `$SHELL` stands for the user's login shell in profiles. */
export function expandCommand(command: string, env: NodeJS.ProcessEnv = process.env): string {
  return command === '$SHELL' ? env.SHELL || '/bin/sh' : command;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The executable a command names, searched on PATH like a shell would; null when there is none. */
export function findExecutable(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (command.includes('/')) return isExecutable(command) ? path.resolve(command) : null;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}
