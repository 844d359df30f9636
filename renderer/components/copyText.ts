/**
 * Puts plain text on the clipboard. A browser gives the clipboard only to pages it deems secure
 * (https, or this machine's own addresses): a page opened over plain http from another machine,
 * such as a phone on the LAN, has none, and is told so in words.
 */
export async function copyText(text: string): Promise<void> {
  if (!window.isSecureContext || !navigator.clipboard) {
    throw new Error('this page has no clipboard: a browser gives one only to pages on https or on this machine (localhost, 127.0.0.1)');
  }
  await navigator.clipboard.writeText(text);
}
