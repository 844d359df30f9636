import fs from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../../../shared/shellQuote';

/**
 * Writes `<dir>/drover`, a tiny script that runs this Drover's CLI, so agent terminals (and the
 * hooks their CLIs run) find `drover` on PATH whichever host started them.
 */
export function writeCliShim(dir: string, command: readonly string[], env: Record<string, string> = {}): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'drover');
  const assignments = Object.entries(env).map(([key, value]) => `${key}=${shellQuote(value)} `).join('');
  fs.writeFileSync(file, `#!/bin/sh\n${assignments}exec ${command.map(shellQuote).join(' ')} "$@"\n`, { mode: 0o700 });
  fs.chmodSync(file, 0o700);
  return dir;
}
