// Loaded before the page's own script in the tests' copy of dist/ (never
// shipped): it records what went wrong in the page itself, because WebKit's
// WebDriver cannot read the console, and the files the page handed to the
// browser to save, because no driver here reads downloads in every engine.
(() => {
  const problems = [];
  const saved = [];
  window.engineProbe = { problems, saved };
  const text = (value) => String(value?.message ?? value);
  addEventListener('error', (event) => {
    // A failed <script>/<link> reports on its element (capture phase), a script error on window.
    const source = event.target?.src ?? event.target?.href;
    problems.push(source ? `failed to load ${source}` : `error: ${text(event.error ?? event.message)}`);
  }, true);
  addEventListener('unhandledrejection', (event) => problems.push(`unhandled rejection: ${text(event.reason)}`));
  addEventListener('securitypolicyviolation', (event) =>
    problems.push(`CSP ${event.effectiveDirective} blocked ${event.blockedURI || 'an inline resource'}`));
  for (const level of ['error', 'warn']) {
    const original = console[level];
    console[level] = (...args) => {
      problems.push(`console.${level}: ${args.map(text).join(' ')}`);
      original.apply(console, args);
    };
  }
  const createObjectURL = URL.createObjectURL;
  URL.createObjectURL = (blob) => {
    saved.push(blob);
    return createObjectURL.call(URL, blob);
  };
})();
