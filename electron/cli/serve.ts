import { parseArgs } from 'node:util';
import type { WebDoor } from '../../shared/host';
import { SERVING_LINE_PREFIX } from '../../shared/protocol';
import { ensureHost, hostAnswers } from '../host/hostLauncher';
import { isRecordedHostAlive, readHostRecord } from '../host/hostRecord';
import { originsOf, parseOrigin } from '../host/webServer';
import { hostCommandFor, type HostCliContext } from './hostCommands';
import { connectToDrover, type SocketClient } from './socketClient';
import { quoted } from './terminalText';
import { Refusal, UsageError } from './usage';

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535, not ${text}`);
  return port;
}

const RECONNECT_WITHIN_MS = 15_000;

/**
 * `drover serve`: opens the browser door of the data dir's host (starting the host when none runs)
 * and keeps it open while it runs. Stopping serve (Ctrl+C, SIGTERM, even SIGKILL) closes the door
 * and nothing else: agents and tasks go on in the host. When the host itself goes away (a crash,
 * `drover host restart`), serve brings one back and opens the door again on the same port, so an
 * open page reconnects by itself (unless another program took that port meanwhile: then, but for a
 * port given with --port, the door opens on another with a new token, and serve prints its new
 * URL); after `drover host stop` it ends too. Logs go to stderr; stdout carries only serving lines.
 */
export async function serve(args: string[], context: HostCliContext): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '0' },
      host: { type: 'string', default: '127.0.0.1' },
      project: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      'new-token': { type: 'boolean' },
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
  const port = parsePort(values.port);
  const { dataDir, socketPath } = context;
  const hostCommand = hostCommandFor(dataDir, process.env);

  /**
   * Connects to the host (starting one if needed) and opens the door; resolves with the door's URL.
   * A door that moved off its port, taken by another program, says so: its URL holds a new token.
   */
  const openDoor = async (request: { port: number; newToken: boolean; moveIfTaken: boolean }): Promise<{ client: SocketClient; saidStopping: () => boolean } & WebDoor> => {
    const outcome = await ensureHost({ dataDir, socketPath, start: hostCommand });
    if (outcome === 'started') log(`started the Drover host for ${dataDir}`);
    let saidStopping = false;
    const client = await connectToDrover(socketPath, { onHostStopping: () => (saidStopping = true) }, { client: 'serve' });
    let door: WebDoor;
    try {
      const [serving] = (await client.rpc.call('getHostStatus', {})).webDoors;
      // The origin only: the token stays with the serve that printed it (and in the data dir's browser-token).
      if (serving) throw new Refusal(`Drover already serves ${quoted(dataDir)} at ${new URL(serving.url).origin} (another drover serve keeps that door open): open the URL that serve printed, with its token (also in browser-token in the data dir), or stop that serve first.`);
      door = await client.rpc.call('openWebDoor', { host: values.host, allowOrigins, ...request });
    } catch (error) {
      client.close();
      throw error;
    }
    if (door.movedFrom !== null) {
      log(`port ${door.movedFrom}, where the browser door served last, is taken by another program: the door opened on ${door.port} with a new token, so a page left open on the old port cannot connect; open the URL printed now`);
    }
    return { client, saidStopping: () => saidStopping, ...door };
  };

  let door = await openDoor({ port, newToken: values['new-token'] === true, moveIfTaken: false });
  if (values.project) {
    const project = await door.client.rpc.call('addProject', { path: values.project });
    log(`project ${project.name} (${project.id}) at ${project.path}`);
  }
  if (values.host !== '127.0.0.1' && values.host !== 'localhost' && values.host !== '::1') {
    log(`warning: listening on ${values.host}, reachable from other machines; anyone with the token controls this Drover`);
    log(`pages may connect from ${originsOf(new URL(door.url).hostname, door.port, allowOrigins).join(', ')} only; add the names you browse to with --allow-origin`);
  }
  process.stdout.write(`${SERVING_LINE_PREFIX}${door.url}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: the browser door closes; agents and tasks keep running in the Drover host (drover host stop ends them)`);
    door.client.close();
    process.exit(0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  for (;;) {
    await door.client.closed;
    if (stopping) return 0;
    const deadline = Date.now() + RECONNECT_WITHIN_MS;
    // A host that stops on purpose says so before its connections end; one that closed them without
    // a word crashed or was killed, even while its process still reads as alive (exiting, unreaped).
    let toldCrash = !door.saidStopping() || hostCrashed(dataDir);
    log(toldCrash ? 'the Drover host went away; starting it again' : 'the Drover host stopped; waiting for it to come back');
    for (;;) {
      try {
        const outcome = await hostBackOrCrashed(dataDir, socketPath, deadline);
        if (outcome === 'stopped') {
          log('the Drover host was stopped (drover host stop); serve ends too');
          return 0;
        }
        if (outcome === 'crashed' && !toldCrash) {
          toldCrash = true;
          log('the Drover host had crashed; starting it again');
        }
        // The same port, so open pages reconnect; one the person did not choose moves when it was taken meanwhile.
        door = await openDoor({ port: door.port, newToken: false, moveIfTaken: port === 0 });
        log(`the browser door is open again at ${new URL(door.url).origin}`);
        if (door.movedFrom !== null) process.stdout.write(`${SERVING_LINE_PREFIX}${door.url}\n`);
        break;
      } catch (error) {
        if (Date.now() >= deadline) throw error;
        log(`could not open the browser door again: ${error instanceof Error ? error.message : String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }
}

/** A host stopped on purpose removed its record; one that crashed left it behind, naming a process that is gone. */
function hostCrashed(dataDir: string): boolean {
  const record = readHostRecord(dataDir);
  return record !== null && !isRecordedHostAlive(record);
}

/**
 * Waits until a host answers (a restart brings one back) or the last one turns out to have crashed
 * (then serve starts one), or the deadline passes: the host was stopped. The crash is asked again at
 * every step, as a host that is still exiting, or dead but not yet reaped, reads as alive at first.
 */
async function hostBackOrCrashed(dataDir: string, socketPath: string, deadline: number): Promise<'answers' | 'crashed' | 'stopped'> {
  while (Date.now() < deadline) {
    if (hostCrashed(dataDir)) return 'crashed';
    if (await hostAnswers(socketPath)) return 'answers';
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return 'stopped';
}
