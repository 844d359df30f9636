import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SERVING_LINE_PREFIX } from '../../shared/protocol';
import { startHost } from '../host/host';
import { keepServingOnUnhandledRejection } from '../host/lastResort';
import { defaultDataDir } from '../host/paths';
import { parseOrigin, startWebServer } from '../host/webServer';
import { cliRuntime } from './cliRuntime';
import { UsageError } from './usage';

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535, not ${text}`);
  return port;
}

/**
 * The browser token lives in the data dir (owner-only), so a page left open across a restart of
 * the host reconnects instead of being locked out.
 */
function readOrCreateToken(file: string): string {
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(existing)) return existing;
  } catch {
    // No token yet: make one.
  }
  const token = randomBytes(24).toString('base64url');
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

/** `drover serve`: the browser host. Logs go to stderr; stdout carries only the serving line. */
export async function serve(args: string[], version: string): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string', default: '7400' },
      host: { type: 'string', default: '127.0.0.1' },
      project: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
    },
    strict: true,
  });
  const allowOrigins = (values['allow-origin'] ?? []).map((origin) => {
    try {
      return parseOrigin(origin);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  });
  const log = (line: string) => process.stderr.write(`[drover] ${line}\n`);
  keepServingOnUnhandledRejection(log);
  const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir();
  const port = parsePort(values.port);
  const runtime = cliRuntime({ execPath: process.execPath, cliDir: __dirname, versions: process.versions, env: process.env });
  const host = await startHost({ dataDir, version, log, ...runtime });
  let web: Awaited<ReturnType<typeof startWebServer>> | undefined;
  try {
    if (values.project) {
      const project = await host.core.api.addProject({ path: values.project });
      log(`project ${project.name} (${project.id}) at ${project.path}`);
    }
    web = await startWebServer(host, {
      host: values.host,
      port,
      rendererDir: path.join(__dirname, '..', 'renderer'),
      token: readOrCreateToken(path.join(dataDir, 'browser-token')),
      allowOrigins,
    });
  } catch (error) {
    await host.close();
    throw error;
  }
  if (values.host !== '127.0.0.1' && values.host !== 'localhost' && values.host !== '::1') {
    log(`warning: listening on ${values.host}, reachable from other machines; anyone with the token controls this Drover`);
    log(`pages may connect from ${[new URL(web.url).origin, ...allowOrigins].join(', ')} and loopback only; add the names you browse to with --allow-origin`);
  }
  process.stdout.write(`${SERVING_LINE_PREFIX}${web.url}\n`);

  const server = web;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping tasks and closing`);
    void Promise.all([server.close(), host.close()]).then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
