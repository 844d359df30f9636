import { describe, expect, it } from 'vitest';
import { isTyping, TerminalViewers } from './terminalViewers';

const desktop = { name: 'desktop' };
const phone = { name: 'phone' };
const DESKTOP = { cols: 200, rows: 50 };
const PHONE = { cols: 44, rows: 30 };

describe('TerminalViewers: whose size an agent PTY takes', () => {
  it('the first viewer to attach owns the PTY; one that merely attaches after it changes nothing', () => {
    const viewers = new TerminalViewers();
    expect(viewers.reported(desktop, DESKTOP, true)).toEqual(DESKTOP);
    expect(viewers.reported(phone, PHONE, true)).toBeNull();
    expect(viewers.ownerSize).toEqual(DESKTOP);
  });

  it('typing hands the PTY to the viewer that typed, at the size it last reported', () => {
    const viewers = new TerminalViewers();
    viewers.reported(desktop, DESKTOP, true);
    viewers.reported(phone, PHONE, true);
    expect(viewers.typed(phone)).toEqual(PHONE);
    // The desktop's pane is laid out again: the phone still owns it.
    expect(viewers.reported(desktop, { cols: 180, rows: 48 }, true)).toBeNull();
    expect(viewers.typed(desktop)).toEqual({ cols: 180, rows: 48 });
    expect(viewers.ownerSize).toEqual({ cols: 180, rows: 48 });
  });

  it("the owner's own layout changes apply; a resize on purpose takes the PTY over", () => {
    const viewers = new TerminalViewers();
    viewers.reported(desktop, DESKTOP, true);
    expect(viewers.reported(desktop, { cols: 150, rows: 40 }, true)).toEqual({ cols: 150, rows: 40 });
    expect(viewers.reported(phone, PHONE, false)).toEqual(PHONE);
    expect(viewers.ownerSize).toEqual(PHONE);
  });

  it('a viewer that never reported a size types without taking the PTY', () => {
    const viewers = new TerminalViewers();
    viewers.reported(desktop, DESKTOP, true);
    expect(viewers.typed({ name: 'cli' })).toBeNull();
    expect(viewers.ownerSize).toEqual(DESKTOP);
  });

  it('once the owner leaves, the next viewer that reports or types takes over', () => {
    const viewers = new TerminalViewers();
    viewers.reported(desktop, DESKTOP, true);
    viewers.reported(phone, PHONE, true);
    viewers.left(desktop);
    expect(viewers.ownerSize).toBeNull();
    expect(viewers.typed(desktop)).toBeNull();
    expect(viewers.reported(phone, PHONE, true)).toEqual(PHONE);
    expect(viewers.ownerSize).toEqual(PHONE);
  });

  it("a terminal's focus report is not typing: focusing the phone's terminal does not take the PTY", () => {
    expect(isTyping('\u001b[I')).toBe(false);
    expect(isTyping('\u001b[O')).toBe(false);
    expect(isTyping('\u001b[A')).toBe(true);
    expect(isTyping('y')).toBe(true);
  });
});
