import packageJson from '../../package.json';
import type { MethodName, MethodParams, MethodResult } from '../../shared/contract';
import type { DroverEvent } from '../../shared/events';
import { PROTOCOL_VERSION, type HostHello } from '../../shared/host';
import { openSocket, type DroverCaller, type SocketClient } from '../cli/socketClient';
import { ensureHost, type HostCommand } from '../host/hostLauncher';


export interface HostSessionOptions {
  dataDir: string;
  socketPath: string;
  start: HostCommand;
  log(line: string): void;
}

const RECONNECT_STEPS_MS = [200, 500, 1000, 2000, 5000];

/**
 * The desktop window's link to the host, which runs in a process of its own: makes sure one runs
 * (starting it when none does) and keeps a connection of the window's own for its menus, dialogs
 * and notifications. When the host goes away, `lost` (it crashed or was killed) or `stopped` (it
 * said it stops: `drover host stop` from a terminal, a restart), the session starts or finds a host
 * again with backoff; the pages see their own lines to it end (pageLines.ts) and reconnect as a
 * browser page does. Nothing here imports Electron.
 */
export class HostSession implements DroverCaller {
  private control: SocketClient | null = null;
  private current: HostHello | null = null;
  private readonly eventListeners = new Set<(event: DroverEvent) => void>();
  private stopping = false;

  constructor(private readonly options: HostSessionOptions) {}

  /** Who the host is; set once open. */
  get hello(): HostHello {
    if (!this.current) throw new Error('Not connected to the Drover host yet.');
    return this.current;
  }

  /** The host speaks this window's protocol (a window of another version shows the host's own UI). */
  get speaksOurProtocol(): boolean {
    return this.hello.protocol === PROTOCOL_VERSION;
  }

  /** Starts a host if none runs and connects; rejects with the reason a host could not start. */
  async open(): Promise<HostHello> {
    const outcome = await ensureHost({ dataDir: this.options.dataDir, socketPath: this.options.socketPath, start: this.options.start });
    if (outcome === 'started') this.options.log(`started the Drover host for ${this.options.dataDir}`);
    let saidStopping = false;
    const control = await openSocket(this.options.socketPath, {
      onEvent: (event) => this.eventListeners.forEach((listener) => listener(event)),
      onHostStopping: () => (saidStopping = true),
    });
    try {
      this.current = await control.rpc.call('hostHello', { protocol: PROTOCOL_VERSION, version: packageJson.version, client: 'window' });
    } catch (error) {
      control.close();
      throw error;
    }
    this.control = control;
    void control.closed.then(() => this.onLost(control, saidStopping ? 'stopped' : 'lost'));
    return this.current;
  }

  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
    if (!this.control) return Promise.reject(new Error('Not connected to the Drover host.'));
    return this.control.rpc.call(method, params);
  }

  onEvent(listener: (event: DroverEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /**
   * Stops the host with everything it runs (agents stop, tasks end interrupted), then, with
   * `startAgain`, starts a new one: the one this window was built with.
   */
  async stopHost(startAgain: boolean): Promise<void> {
    const control = this.control;
    if (!control) return;
    // Stopped on purpose: onLost, which reconnects, leaves it to this call.
    this.control = null;
    await control.rpc.call('stopHost', {});
    await control.closed;
    if (!startAgain) {
      this.stopping = true;
      return;
    }
    await this.reopen();
  }

  /** The window closes: its own connection goes, the host stays. */
  close(): void {
    this.stopping = true;
    this.control?.close();
  }

  private onLost(control: SocketClient, how: 'lost' | 'stopped'): void {
    if (this.control !== control) return;
    this.control = null;
    if (this.stopping) return;
    this.options.log(how === 'stopped' ? 'the Drover host was stopped; reconnecting' : 'the connection to the Drover host was lost; reconnecting');
    void this.reopen();
  }

  private async reopen(): Promise<void> {
    for (let attempt = 0; !this.stopping; attempt++) {
      try {
        await this.open();
        return;
      } catch (error) {
        this.options.log(`could not reach the Drover host: ${error instanceof Error ? error.message : String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_STEPS_MS[Math.min(attempt, RECONNECT_STEPS_MS.length - 1)]));
      }
    }
  }
}
