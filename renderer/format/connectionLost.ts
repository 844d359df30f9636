import type { ConnectionLoss } from '../../shared/connectionLoss';

/** What the person does about a refusal: the page cannot find the token by itself, and must not ask a server for it. */
const NEEDS_THE_URL =
  'Open the URL drover serve printed (…/?token=…): it prints it each time it starts, and the token is also in the browser-token file of the data dir (drover host status names it).';

const REFUSALS: Readonly<Record<Extract<ConnectionLoss, { kind: 'refused' }>['why'], string>> = {
  'no-token': 'This page was opened without its access token, so it cannot connect.',
  'not-the-door':
    "The server on this page's port did not prove it holds this page's token, so the page sent it nothing and stopped: drover serve made a new token, or another program holds the port.",
  'token-refused': "Drover refused this page's token.",
};

/** Who a page lost: its host (named as the page's own, or the serving one of a machine's page) and its machine. */
interface Lost {
  host: string;
  machine: string | null;
}

/** A loss the page reconnects after, in words: what went, and what became of this machine's work and of an agent. */
interface LossWords {
  went(lost: Lost): string;
  /** This machine's agents and tasks; a machine's page says its work goes on there, whatever went here. */
  work: string;
  /** The agent under a pane, likewise. */
  agent: string;
}

/**
 * A page is told what went when the other end closed with a reason (its machine, its serve, the
 * host stopping); without one the host vanished (a crash, a kill) or the network dropped, and the
 * page cannot tell which.
 */
const LOSSES: Readonly<Record<Exclude<ConnectionLoss['kind'], 'refused'>, LossWords>> = {
  machine: {
    went: ({ machine }) => `${machine ?? 'The machine'} unreachable — reconnecting…`,
    work: 'Its agents and tasks go on there; their state shows again once connected.',
    agent: 'The agent goes on there',
  },
  'serve-ended': {
    went: () => 'drover serve, which served this page, stopped — reconnecting…',
    work: 'Agents and tasks go on in the Drover host; their state shows again once drover serve runs.',
    agent: 'The agent goes on in the Drover host',
  },
  'host-stopped': {
    went: ({ host }) => `${capitalized(host)} was stopped — reconnecting…`,
    work: 'Its agents and running tasks ended with it; the page connects again once a new host runs (drover serve, or the desktop app, starts one).',
    agent: 'The agent ended with it',
  },
  'broke-off': {
    went: ({ host }) => `Lost ${host} without a word from it (it crashed or was killed, or the network dropped) — reconnecting…`,
    work: 'If it crashed, its agents and running tasks ended with it (a drover serve still running starts a new host); their state shows again once connected.',
    agent: 'If the host crashed, the agent ended with it',
  },
};

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** The words for a loss the page reconnects after (none yet said: it broke off), and who it lost. */
function wordsOf(machine: string | null, loss: Exclude<ConnectionLoss, { kind: 'refused' }> | null): [LossWords, Lost] {
  return [LOSSES[loss?.kind ?? 'broke-off'], { host: machine ? 'the Drover host serving this page' : 'the Drover host', machine }];
}

/**
 * The banner of a page that is not connected (`machine`: the machine whose page this is; null,
 * the serving machine's own): what went, and what became of the work.
 */
export function connectionBanner(machine: string | null, loss: ConnectionLoss | null): string {
  if (loss?.kind === 'refused') return `${REFUSALS[loss.why]} ${NEEDS_THE_URL}`;
  const [words, lost] = wordsOf(machine, loss);
  const why = loss?.kind === 'machine' ? ` ${loss.reason}` : '';
  const work = machine ? `${machine}'s agents and tasks go on there; their state shows again once connected.` : words.work;
  return `${words.went(lost)}${why} ${work}`;
}

/** Over an agent's pane while the page is not connected: what went, and what became of the agent. */
export function paneAwayWords(machine: string | null, loss: ConnectionLoss | null): string {
  if (loss?.kind === 'refused') return 'Not connected: this page needs the URL drover serve printed. Keys typed here are not sent.';
  const [words, lost] = wordsOf(machine, loss);
  return `${words.went(lost)} ${machine ? LOSSES.machine.agent : words.agent}; keys typed here are not sent.`;
}
