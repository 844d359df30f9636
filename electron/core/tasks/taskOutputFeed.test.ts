import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../test-support/waitFor';
import { TASK_OUTPUT_FLOW, TaskOutputFeed } from './taskOutputFeed';

function feed() {
  const sent: string[] = [];
  const output = new TaskOutputFeed('t-aaaaaa', 'p-aaaaaa', (chunk) => sent.push(chunk.data));
  return { sent, output };
}

describe('TaskOutputFeed', () => {
  it('batches small chunks into one push', async () => {
    const { sent, output } = feed();
    for (let i = 0; i < 50; i++) output.push(`line ${i}\n`);
    expect(sent).toEqual([]);
    await waitFor(() => sent.length > 0, 'the batch');
    expect(sent).toEqual([Array.from({ length: 50 }, (_, i) => `line ${i}\n`).join('')]);
    output.stop();
  });

  it('holds back a client far behind, keeping only the newest output, and sends it once acknowledged', () => {
    const { sent, output } = feed();
    const step = 'x'.repeat(TASK_OUTPUT_FLOW.maxBatchChars);
    const batches = Math.ceil(TASK_OUTPUT_FLOW.holdAbove / step.length) + 1;
    for (let i = 0; i < batches; i++) output.push(step);
    expect(sent).toHaveLength(batches);
    for (let i = 0; i < 20; i++) output.push(i === 19 ? `${step}END` : step);
    expect(sent).toHaveLength(batches);
    output.acknowledge(batches * step.length);
    expect(sent).toHaveLength(batches + 1);
    expect(sent.at(-1)).toHaveLength(TASK_OUTPUT_FLOW.maxBatchChars);
    expect(sent.at(-1)?.endsWith('END')).toBe(true);
    output.stop();
  });

  it('counts bytes, not characters', () => {
    const { sent, output } = feed();
    const wide = '\u00e9'.repeat(TASK_OUTPUT_FLOW.maxBatchChars);
    const batches = Math.ceil(TASK_OUTPUT_FLOW.holdAbove / (2 * wide.length)) + 1;
    for (let i = 0; i < batches; i++) output.push(wide);
    output.push(wide);
    expect(sent).toHaveLength(batches);
    output.stop();
  });
});
