// What the lab's first scripts (boot.js for the page, element-loader.js for
// the element) share: the one script URL each may make, and module preloads.

// The one script URL a first script makes: `allowed`, as a TrustedScriptURL
// where Trusted Types are there (the policy attention-lab-boot, which makes
// that URL and nothing else).
export function oneScriptUrl(allowed) {
  const policy = globalThis.trustedTypes?.createPolicy('attention-lab-boot', {
    createScriptURL(asked) {
      if (asked !== allowed) throw new TypeError(`attention-lab-boot: only ${allowed} may be loaded, not ${asked}`);
      return asked;
    },
  });
  return policy ? policy.createScriptURL(allowed) : allowed;
}

export function preloadModule(href) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = href;
  document.head.append(link);
}

// The first wasm's download, begun now; core-wasm-file.js takes the
// response. (A <link rel=preload> would warn in the console when the page
// asks for it more than a few seconds after the load event, which it may on
// a slow network.)
export function fetchWasmEarly(url) {
  globalThis.attentionLabWasmFetch = { url, response: fetch(url).catch(() => null) };
}
