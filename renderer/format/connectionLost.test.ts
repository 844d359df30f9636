import { describe, expect, it } from 'vitest';
import { connectionBanner, paneAwayWords } from './connectionLost';

describe('what a page that lost its connection says', () => {
  it("says what went and what became of this machine's work and agents", () => {
    expect([connectionBanner(null, { kind: 'serve-ended' }), paneAwayWords(null, { kind: 'serve-ended' })]).toEqual([
      'drover serve, which served this page, stopped — reconnecting… Agents and tasks go on in the Drover host; their state shows again once drover serve runs.',
      'drover serve, which served this page, stopped — reconnecting… The agent goes on in the Drover host; keys typed here are not sent.',
    ]);
    expect([connectionBanner(null, { kind: 'host-stopped' }), paneAwayWords(null, { kind: 'host-stopped' })]).toEqual([
      'The Drover host was stopped — reconnecting… Its agents and running tasks ended with it; the page connects again once a new host runs (drover serve, or the desktop app, starts one).',
      'The Drover host was stopped — reconnecting… The agent ended with it; keys typed here are not sent.',
    ]);
    // No word yet reads as the connection breaking off.
    for (const loss of [null, { kind: 'broke-off' } as const]) {
      expect([connectionBanner(null, loss), paneAwayWords(null, loss)]).toEqual([
        'Lost the Drover host without a word from it (it crashed or was killed, or the network dropped) — reconnecting… If it crashed, its agents and running tasks ended with it (a drover serve still running starts a new host); their state shows again once connected.',
        'Lost the Drover host without a word from it (it crashed or was killed, or the network dropped) — reconnecting… If the host crashed, the agent ended with it; keys typed here are not sent.',
      ]);
    }
  });

  it("on a machine's page, says that machine's work goes on there whatever went here", () => {
    expect([connectionBanner('box', { kind: 'machine', reason: 'ssh refused the login.' }), paneAwayWords('box', { kind: 'machine', reason: 'ssh refused the login.' })]).toEqual([
      "box unreachable — reconnecting… ssh refused the login. box's agents and tasks go on there; their state shows again once connected.",
      'box unreachable — reconnecting… The agent goes on there; keys typed here are not sent.',
    ]);
    expect([connectionBanner('box', { kind: 'host-stopped' }), paneAwayWords('box', { kind: 'host-stopped' })]).toEqual([
      "The Drover host serving this page was stopped — reconnecting… box's agents and tasks go on there; their state shows again once connected.",
      'The Drover host serving this page was stopped — reconnecting… The agent goes on there; keys typed here are not sent.',
    ]);
  });

  it('sends a refused page to the URL drover serve printed, and never says it reconnects', () => {
    for (const why of ['no-token', 'not-the-door', 'token-refused'] as const) {
      for (const machine of [null, 'box']) {
        expect(connectionBanner(machine, { kind: 'refused', why })).toContain('Open the URL drover serve printed (…/?token=…)');
        expect(connectionBanner(machine, { kind: 'refused', why })).not.toContain('reconnecting');
        expect(paneAwayWords(machine, { kind: 'refused', why })).toBe('Not connected: this page needs the URL drover serve printed. Keys typed here are not sent.');
      }
    }
    expect(connectionBanner(null, { kind: 'refused', why: 'no-token' })).toMatch(/^This page was opened without its access token, so it cannot connect\. /);
  });
});
