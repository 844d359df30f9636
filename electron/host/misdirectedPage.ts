/**
 * A page opened at an address the door does not let pages in from (`localhost` or `[::1]` for a
 * door on 127.0.0.1, a tunnel's other port, an old bookmark) would have its WebSocket refused, and
 * could only say it lost the host. Such a load gets this page instead, naming the door's own
 * addresses. The Host header only picks which answer a load gets: what lets a page in stays its
 * Origin, checked on the WebSocket.
 */

/** The Host header (`host[:port]`, as URLs spell it) a page of each of these origins is loaded with. */
export function pageHostsOf(origins: Iterable<string>): Set<string> {
  return new Set([...origins].map((origin) => new URL(origin).host));
}

/** Whether a load named a host none of the door's pages live at; one that names none is no browser's. */
export function isMisdirected(hostHeader: string | undefined, pageHosts: ReadonlySet<string>): boolean {
  if (hostHeader === undefined) return false;
  try {
    return !pageHosts.has(new URL(`http://${hostHeader}`).host);
  } catch {
    return true;
  }
}

/**
 * The page itself: the door's origins (its URL's first), and never its token. Origins are an
 * address or a name checked by `parseOrigin`, so they hold nothing HTML would read as markup.
 */
export function misdirectedPage(origins: readonly string[]): string {
  const [own = '', ...others] = origins;
  const links = origins.map((origin) => `<li><a href="${origin}/">${origin}</a></li>`).join('');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><title>Drover is served at another address</title></head><body>',
    `<h1>Drover is served at ${own}</h1>`,
    `<p>This page was opened at an address this Drover door does not serve its page at, so it could not connect. Its page${others.length ? 's are' : ' is'} served at:</p>`,
    `<ul>${links}</ul>`,
    `<p>Open the URL drover serve printed (${own}/?token=…): it prints it each time it starts, and the token is also in the browser-token file of the data dir (drover host status names it). To open Drover at another name, through a tunnel to another port or a proxy, start drover serve with --allow-origin and that page's origin.</p>`,
    '</body></html>',
  ].join('\n');
}
