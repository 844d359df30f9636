import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LineEvent } from '../../shared/preloadBridge';
import { decodeStreamFrame } from '../../shared/streamFrames';
import { hostPerTest } from '../../test-support/hostPerTest';
import { waitFor } from '../../test-support/waitFor';
import { PageLines } from './pageLines';

/** What the page hears of each line, as main would send it. */
function listeningPage() {
  const heard: [number, LineEvent][] = [];
  const frames = (id: number) => heard.flatMap(([of, event]) => (of === id && event.t === 'frame' ? [event.frame] : []));
  const texts = (id: number) => frames(id).flatMap((frame) => (typeof frame === 'string' ? [JSON.parse(frame) as Record<string, unknown>] : []));
  const ended = (id: number) => heard.some(([of, event]) => of === id && event.t === 'closed');
  return { heard, frames, texts, ended, tell: (id: number, event: LineEvent) => heard.push([id, event]) };
}

describe("a window page's lines to the host's socket", () => {
  const running = hostPerTest();

  it('passes the frames both ways unread: replies, events and binary output reach the page, a bad frame gets the host\'s own refusal', async () => {
    const page = listeningPage();
    const lines = new PageLines(running.host.socketPath, page.tell);
    lines.open(1, null);
    await waitFor(() => page.heard.some(([id, event]) => id === 1 && event.t === 'open'), 'the line open');
    fs.mkdirSync(path.join(running.dir, 'shop'));
    lines.send(1, JSON.stringify({ t: 'req', id: 7, method: 'addProject', params: { path: path.join(running.dir, 'shop') } }));
    lines.send(1, '{"t":"req","id":8,"method":"getStatus"}\n{"t":"req","id":9,"method":"getStatus"}');
    lines.send(1, '{"t":"req","id":"eight"}');
    await waitFor(() => page.texts(1).some((frame) => frame.t === 'res' && frame.ok === false), 'the refusal');
    await waitFor(() => page.texts(1).some((frame) => frame.t === 'evt'), 'the projectChanged event');
    // Answered as they are done, not in order; the two frames that came as one line never reached the host.
    const replies = page.texts(1).filter((frame) => frame.t === 'res');
    expect(replies).toHaveLength(2);
    expect(replies).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: 7, ok: true, result: expect.objectContaining({ name: 'shop' }) }),
      expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'bad-request', message: expect.stringContaining('Malformed request frame') }) }),
    ]));
    const project = (replies.find((frame) => frame.id === 7) as { result: { id: string } }).result;
    const task = await running.host.core.api.createTask({ projectId: project.id, command: `while [ ! -e ${running.dir}/go ]; do sleep 0.02; done; echo café` });
    lines.send(1, JSON.stringify({ t: 'req', id: 10, method: 'watchTaskOutput', params: { taskId: task.id } }));
    await waitFor(() => page.texts(1).some((frame) => frame.id === 10), 'the watch');
    fs.writeFileSync(path.join(running.dir, 'go'), '');
    const output = () =>
      page.frames(1).flatMap((frame) => {
        const pushed = typeof frame === 'string' ? null : (decodeStreamFrame(frame) as { t: string; chunk: { taskId: string; data: Uint8Array } } | null);
        return pushed?.t === 'out' && pushed.chunk.taskId === task.id ? [Buffer.from(pushed.chunk.data).toString()] : [];
      });
    await waitFor(() => output().join('') === 'café\r\n', 'the output, as bytes');
    lines.closeAll();
    await waitFor(() => page.ended(1), 'the line ended');
  });

  it("opens a line to another machine through the host, which ends it with the reason it cannot reach it", async () => {
    const page = listeningPage();
    new PageLines(running.host.socketPath, page.tell).open(2, 'box');
    await waitFor(() => page.ended(2), 'the line ended');
    expect(page.texts(2)).toEqual([{ t: 'machine-gone', reason: 'No machine named box here: it was removed, or never added.' }]);
  });

  it('ends every line of the page when the host goes, and one that cannot reach the socket at once', async () => {
    const page = listeningPage();
    const lines = new PageLines(running.host.socketPath, page.tell);
    lines.open(3, null);
    await waitFor(() => page.heard.some(([id, event]) => id === 3 && event.t === 'open'), 'the line open');
    await running.host.close();
    await waitFor(() => page.ended(3), 'the line ended');
    lines.open(4, null);
    await waitFor(() => page.ended(4), 'the second line ended');
    expect(page.heard.filter(([id]) => id === 4).map(([, event]) => event.t)).toEqual(['closed']);
  });
});
