import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../../shared/entities/sessions';
import { makeSession } from '../testing/fixtures';
import { agentStatus, endedHint, isSessionLive, quotaSummary } from './agentPresentation';

const session = (changes: Partial<AgentSession>) => makeSession({ pid: 42, ...changes });

const NOW = new Date(2025, 4, 6, 15, 0).getTime();

describe('agentStatus', () => {
  it('names each state with its own word', () => {
    expect(agentStatus(session({ state: 'starting' }), NOW).label).toBe('Starting');
    expect(agentStatus(session({ state: 'busy' }), NOW).label).toBe('Busy');
    expect(agentStatus(session({ state: 'ready' }), NOW).label).toBe('Ready');
    expect(agentStatus(session({ state: 'exited', exitCode: 0 }), NOW)).toMatchObject({ label: 'Exited', detail: 'code 0' });
    expect(agentStatus(undefined, NOW).label).toBe('Not started');
  });

  it('says an end the host or the person caused as such, not by the code the CLI exited with', () => {
    expect(agentStatus(session({ state: 'exited', endReason: 'app-restart', exitCode: 143 }), NOW)).toMatchObject({ label: 'Exited', detail: 'stopped when the host stopped' });
    expect(agentStatus(session({ state: 'exited', endReason: 'app-restart', exitCode: null }), NOW).detail).toBe('stopped when the host stopped');
    expect(agentStatus(session({ state: 'exited', endReason: 'host-died', exitCode: null }), NOW).detail).toBe('ended when the host died');
    expect(agentStatus(session({ state: 'exited', endReason: 'stopped', exitCode: 143 }), NOW).detail).toBe('stopped');
    expect(agentStatus(session({ state: 'exited', endReason: 'exited', exitCode: 143 }), NOW).detail).toBe('code 143');
  });

  it('says when a ready agent waits for an answer', () => {
    expect(agentStatus(session({ needsInput: true }), NOW)).toMatchObject({ label: 'Needs input', tone: 'needs-input' });
  });

  it('shows when a usage limit resets, with the day when it is not today', () => {
    const today = agentStatus(session({ state: 'limited', limitResetsAt: new Date(2025, 4, 6, 20, 0).getTime() }), NOW);
    expect(today).toMatchObject({ label: 'Limited', tone: 'limited' });
    expect(today.detail).toMatch(/^resets .*0?8:00|^resets 20:00/);
    const tomorrow = agentStatus(session({ state: 'limited', limitResetsAt: new Date(2025, 4, 7, 9, 0).getTime() }), NOW);
    expect(tomorrow.detail).toMatch(/^resets \S+ /);
  });
});

describe('session helpers', () => {
  it('treats every state but exited as live', () => {
    expect(isSessionLive(session({ state: 'limited' }))).toBe(true);
    expect(isSessionLive(session({ state: 'exited' }))).toBe(false);
    expect(isSessionLive(undefined)).toBe(false);
  });

  it('explains how a session ended', () => {
    expect(endedHint(session({ state: 'exited', endReason: 'app-restart' }))).toBe('Session ended when Drover stopped.');
    expect(endedHint(session({ state: 'exited', endReason: 'host-died' }))).toBe('Session ended when the Drover host died.');
    expect(endedHint(session({ state: 'exited', endReason: 'exited', exitCode: 2 }))).toBe('Session exited with code 2.');
    expect(endedHint(session({ state: 'exited', endReason: 'spawn-failed: ENOENT' }))).toBe('Could not start: ENOENT');
  });
});

describe('quotaSummary', () => {
  const now = Date.UTC(2026, 10, 29, 15, 0);
  it('shows each window the CLI reports, and marks a spent one', () => {
    expect(quotaSummary(null, now)).toBeNull();
    expect(quotaSummary({ fiveHour: { usedPercent: 42.4, resetsAt: now + 3_600_000 }, weekly: { usedPercent: 17, resetsAt: null } }, now)).toMatchObject({
      text: '5h 42% · week 17%',
      spent: false,
    });
    expect(quotaSummary({ fiveHour: { usedPercent: 100, resetsAt: now + 3_600_000 }, weekly: null }, now)).toMatchObject({ text: '5h 100%', spent: true });
  });
});
