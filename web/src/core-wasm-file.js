// The page's core with its wasm in a file of its own, beside app.js, instead
// of inlined in the script as base64 (a third more bytes, and no compiling
// while it downloads). Over http the wasm is fetched and compiled as it
// streams. A page opened from disk cannot fetch (file:// has no origin to
// fetch from), so there the same bytes come in a classic script beside it,
// attention-core-wasm.js, which scripts may load from disk. The page's
// Trusted Types policy allows that one script URL and nothing else. The
// course page's element and the JS API keep the wasm inlined (one file).
import createInlinedModule from 'attention-core-glue';

const WASM_FILE = 'attention-core.wasm';
const FALLBACK_SCRIPT = 'attention-core-wasm.js';
const FALLBACK_GLOBAL = 'attentionLabCoreWasm';
// Captured while app.js runs: afterwards document.currentScript is null.
const scriptUrl = document.currentScript?.src ?? document.baseURI;

function fromScript() {
  const url = new URL(FALLBACK_SCRIPT, scriptUrl).href;
  const policy = globalThis.trustedTypes?.createPolicy('attention-lab-core', {
    createScriptURL(asked) {
      if (asked !== url) throw new TypeError(`attention-lab-core: only ${url} may be loaded, not ${asked}`);
      return asked;
    },
  });
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = policy ? policy.createScriptURL(url) : url;
    script.onload = () => {
      const base64 = globalThis[FALLBACK_GLOBAL];
      delete globalThis[FALLBACK_GLOBAL];
      script.remove();
      if (typeof base64 !== 'string') reject(new Error(`${FALLBACK_SCRIPT} did not provide the core`));
      else resolve(Uint8Array.from(atob(base64), (character) => character.charCodeAt(0)));
    };
    script.onerror = () => reject(new Error(`${WASM_FILE} could not be loaded, nor ${FALLBACK_SCRIPT}: are they beside app.js?`));
    document.head.append(script);
  });
}

async function instantiate(imports) {
  const url = new URL(WASM_FILE, scriptUrl);
  if (url.protocol !== 'file:') {
    // The page's first script (boot.js) may have begun the download already.
    const early = globalThis.attentionLabWasmFetch;
    delete globalThis.attentionLabWasmFetch;
    const response = await (early?.url === url.href ? early.response : fetch(url).catch(() => null));
    if (response?.ok) {
      // A server that does not say application/wasm cannot stream: compile the bytes instead.
      if (response.headers.get('Content-Type')?.startsWith('application/wasm')) {
        return WebAssembly.instantiateStreaming(response, imports);
      }
      return WebAssembly.instantiate(await response.arrayBuffer(), imports);
    }
  }
  return WebAssembly.instantiate(await fromScript(), imports);
}

// Emscripten's factory, given the wasm's instance by us: a failure to get it
// rejects the module (Emscripten itself would only log it).
export default function createAttentionModule(options = {}) {
  let fail;
  const failed = new Promise((resolve, reject) => {
    fail = reject;
  });
  const created = createInlinedModule({
    ...options,
    instantiateWasm(imports, receiveInstance) {
      instantiate(imports).then(({ instance, module }) => receiveInstance(instance, module), fail);
      return {}; // the exports arrive later, through receiveInstance
    },
  });
  return Promise.race([created, failed]);
}
