import fs from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../../common/shellQuote';

/**
 * A `/bin/sh` script that runs `command` with `env` and its own arguments; `comment` lines (if
 * any) go under the shebang, and each of `defaults` is exported unless the caller's environment
 * sets it already. The same script serves the shim below and the `drover` launcher of "Install
 * command line tool".
 */
export function cliScript(command: readonly string[], env: Record<string, string> = {}, comment: readonly string[] = [], defaults: Record<string, string> = {}): string {
  const assignments = Object.entries(env).map(([key, value]) => `${key}=${shellQuote(value)} `).join('');
  const comments = comment.map((line) => `# ${line}\n`).join('');
  const defaulted = Object.entries(defaults).map(([key, value]) => `${key}=\${${key}:-${shellQuote(value)}}\nexport ${key}\n`).join('');
  return `#!/bin/sh\n${comments}${defaulted}${assignments}exec ${command.map(shellQuote).join(' ')} "$@"\n`;
}

/** The value `cliScript` gave `key` in `defaults`, read back from the script; null when it gave none. */
export function scriptDefault(script: string, key: string): string | null {
  const line = script.split('\n').find((candidate) => candidate.startsWith(`${key}=\${${key}:-'`) && candidate.endsWith(`'}`));
  return line === undefined ? null : line.slice(`${key}=\${${key}:-'`.length, -2).replace(/'\\''/g, "'");
}

/**
 * Writes `<dir>/drover`, a tiny script that runs this Drover's CLI, so agent terminals (and the
 * hooks their CLIs run) find `drover` on PATH whichever host started them.
 */
export function writeCliShim(dir: string, command: readonly string[], env: Record<string, string> = {}): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'drover');
  fs.writeFileSync(file, cliScript(command, env), { mode: 0o700 });
  fs.chmodSync(file, 0o700);
  return dir;
}
