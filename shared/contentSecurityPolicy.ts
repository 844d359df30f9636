const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

/** Sent as a header by the browser host and the Electron session. */
export const CONTENT_SECURITY_POLICY = [...DIRECTIVES, "frame-ancestors 'none'"].join('; ');

/**
 * The same policy for the page's <meta> tag (file:// loads in Electron get no headers);
 * browsers ignore frame-ancestors in <meta>, so it is left out there.
 */
export const CONTENT_SECURITY_POLICY_META = DIRECTIVES.join('; ');
