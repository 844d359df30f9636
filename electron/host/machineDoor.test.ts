import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../shared/host';
import { greetingProblem } from '../wire/machinePageRules';
import { closeReason } from './pageChannel';

const reply = (result: object) => ({ t: 'res', id: 0, ok: true, result });

describe("a machine page's door", () => {
  it("lets a page through to a host of this protocol, and names the one it cannot speak to", () => {
    expect(greetingProblem('box', reply({ protocol: PROTOCOL_VERSION, version: '0.1.0', pid: 7, rendererDir: null }))).toBeNull();
    expect(greetingProblem('box', reply({ protocol: PROTOCOL_VERSION + 1, version: '9.0.0', pid: 7, rendererDir: null }))).toBe('box runs Drover 9.0.0, another protocol: restart its host once its work is done.');
    expect(greetingProblem('box', { t: 'res', id: 0, ok: false, error: { code: 'bad-request', message: 'no' } })).toBe("box's host refused this page: no");
  });

  it("keeps a close reason within a WebSocket's 123 bytes, dropping ssh's own words first", () => {
    const reason = 'Cannot connect to remote: it refused the login: no key of yours (or your ssh agent) is accepted there for that user.';
    expect(closeReason(`${reason} (ssh: Permission denied (publickey).)`)).toBe(reason);
    const long = closeReason(`${'é'.repeat(100)} (ssh: x)`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(123);
    expect(long.endsWith('…')).toBe(true);
    expect(closeReason('short')).toBe('short');
  });
});
