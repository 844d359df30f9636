import type { ConnectionLoss } from '../transport/bridgeTypes';

/** What the person does about a refusal: the page cannot find the token by itself, and must not ask a server for it. */
const NEEDS_THE_URL =
  'Open the URL drover serve printed (…/?token=…): it prints it each time it starts, and the token is also in the browser-token file of the data dir (drover host status names it).';

const REFUSALS: Readonly<Record<Extract<ConnectionLoss, { kind: 'refused' }>['why'], string>> = {
  'no-token': 'This page was opened without its access token, so it cannot connect.',
  'not-the-door':
    "The server on this page's port did not prove it holds this page's token, so the page sent it nothing and stopped: drover serve made a new token, or another program holds the port.",
  'token-refused': "Drover refused this page's token.",
};

/**
 * What went, in words, and whether the page tries again. `machine` is the machine whose page this
 * is (null: the serving machine's own). A page is told what went when the other end closed with a
 * reason (its machine, its serve, the host stopping); without one the host vanished (a crash, a
 * kill) or the network dropped, and the page cannot tell which.
 */
function whatWent(machine: string | null, loss: ConnectionLoss | null): string {
  const host = machine ? 'the Drover host serving this page' : 'the Drover host';
  switch (loss?.kind) {
    case 'refused':
      return REFUSALS[loss.why];
    case 'machine':
      return `${machine ?? 'The machine'} unreachable — reconnecting…`;
    case 'serve-ended':
      return 'drover serve, which served this page, stopped — reconnecting…';
    case 'host-stopped':
      return `${capitalized(host)} was stopped — reconnecting…`;
    default:
      return `Lost ${host} without a word from it (it crashed or was killed, or the network dropped) — reconnecting…`;
  }
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * The banner of a page that is not connected: what went, and what became of the work. The work of
 * a machine's page goes on there whatever happened on this side; this machine's goes on in the host
 * unless the host itself went.
 */
export function connectionBanner(machine: string | null, loss: ConnectionLoss | null): string {
  if (loss?.kind === 'refused') return `${whatWent(machine, loss)} ${NEEDS_THE_URL}`;
  const why = loss?.kind === 'machine' ? ` ${loss.reason}` : '';
  const work = machine
    ? `${machine}'s agents and tasks go on there; their state shows again once connected.`
    : loss?.kind === 'serve-ended'
      ? 'Agents and tasks go on in the Drover host; their state shows again once drover serve runs.'
      : loss?.kind === 'host-stopped'
        ? 'Its agents and running tasks ended with it; the page connects again once drover serve starts a host.'
        : 'If it crashed, its agents and running tasks ended with it (a drover serve still running starts a new host); their state shows again once connected.';
  return `${whatWent(machine, loss)}${why} ${work}`;
}

/** Over an agent's pane while the page is not connected: what went, and what became of the agent. */
export function paneAwayWords(machine: string | null, loss: ConnectionLoss | null): string {
  if (loss?.kind === 'refused') return 'Not connected: this page needs the URL drover serve printed. Keys typed here are not sent.';
  const agent = machine
    ? 'The agent goes on there'
    : loss?.kind === 'serve-ended'
      ? 'The agent goes on in the Drover host'
      : loss?.kind === 'host-stopped'
        ? 'The agent ended with it'
        : 'If the host crashed, the agent ended with it';
  return `${whatWent(machine, loss)} ${agent}; keys typed here are not sent.`;
}
