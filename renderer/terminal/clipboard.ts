import { copyText } from '../components/copyText';
import type { AgentXterm } from './createAgentXterm';

/** Copies the selection as plain text and, for rich editors, as HTML that keeps the colours. */
export async function copySelection({ terminal, serialize }: AgentXterm): Promise<void> {
  const text = terminal.getSelection();
  if (!text) return;
  const html = serialize.serializeAsHTML({ onlySelection: true });
  try {
    await navigator.clipboard.write([
      new ClipboardItem({ 'text/plain': new Blob([text], { type: 'text/plain' }), 'text/html': new Blob([html], { type: 'text/html' }) }),
    ]);
  } catch {
    await copyText(text);
  }
}
