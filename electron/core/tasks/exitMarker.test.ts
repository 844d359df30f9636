import { describe, expect, it } from 'vitest';
import { ExitMarkerScanner, exitMarkerPrefix } from './exitMarker';

const marker = (status: number) => `${exitMarkerPrefix('n0nce')}${status}\u0007`;

describe('ExitMarkerScanner', () => {
  it('passes output through and strips the marker with its status', () => {
    const scanner = new ExitMarkerScanner('n0nce');
    expect(scanner.feed('hello\r\n')).toBe('hello\r\n');
    expect(scanner.feed(`bye${marker(3)}\r\n`)).toBe('bye');
    expect(scanner.markerSeen).toBe(true);
    expect(scanner.exitStatus).toBe(3);
    expect(scanner.feed('late echo')).toBe('');
  });

  it('finds a marker split across chunks at every position', () => {
    const whole = `abc\u001b[31mred${marker(0)}`;
    for (let cut = 0; cut <= whole.length; cut++) {
      const scanner = new ExitMarkerScanner('n0nce');
      const out = scanner.feed(whole.slice(0, cut)) + scanner.feed(whole.slice(cut));
      expect(out).toBe('abc\u001b[31mred');
      expect(scanner.exitStatus).toBe(0);
    }
  });

  it('ignores a marker with another nonce and releases held-back text', () => {
    const scanner = new ExitMarkerScanner('n0nce');
    const foreign = `${exitMarkerPrefix('other')}5\u0007`;
    expect(scanner.feed(foreign)).toBe(foreign);
    expect(scanner.feed('\u001b]777;drov')).toBe('');
    expect(scanner.flush()).toBe('\u001b]777;drov');
    expect(scanner.markerSeen).toBe(false);
  });
});
