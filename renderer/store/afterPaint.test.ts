import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '../../test-support/waitFor';
import { afterNextPaint } from './afterPaint';

describe('afterNextPaint', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** A page as Chromium runs it: frames only while visible (a minimised window or a background tab gets none). */
  const page = (visibilityState: 'visible' | 'hidden') => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('document', { visibilityState });
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    return { drawFrame: () => frames.splice(0).forEach((callback) => callback(0)) };
  };

  it('waits for the next frame on a visible page, then runs', async () => {
    const { drawFrame } = page('visible');
    let ran = false;
    afterNextPaint(() => (ran = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toBe(false);
    drawFrame();
    await waitFor(() => ran, 'the callback after the frame');
  });

  it('runs on a hidden page, which draws no frame (what follows the paint, the badge count among it, still follows the state)', async () => {
    page('hidden');
    let ran = false;
    afterNextPaint(() => (ran = true));
    await waitFor(() => ran, 'the callback without a frame');
  });
});
