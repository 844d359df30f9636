// Shows the theme this browser showed last (renderer/components/shownTheme.ts keeps it) before the
// first paint, so a light page does not flash dark while the host's setting is on its way. A file,
// not an inline script: the page's Content-Security-Policy allows scripts from 'self' only.
try {
  if (window.localStorage.getItem('drover.shownTheme') === 'light') document.documentElement.dataset.theme = 'light';
} catch {
  // Storage can be disabled: the page shows dark until the setting arrives.
}
