const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  // 'self' covers the page's own ws:// (wss://) origin and nothing else: the API socket only.
  "connect-src 'self'",
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

/**
 * Headers on every reply of the page's server, errors included: the policy above, no Referer
 * (the page's URL holds the browser token), and no guessing of content types.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};
