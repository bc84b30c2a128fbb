// The page's core with each part's wasm in a file of its own, beside app.js,
// instead of inlined in the script as base64 (a third more bytes, and no
// compiling while it downloads). Over http the wasm is fetched and compiled
// as it streams. A page opened from disk cannot fetch (file:// has no origin
// to fetch from), so there the same bytes come in a classic script beside
// it, attention-core-<part>-wasm.js, which scripts may load from disk. The
// page's Trusted Types policy allows those script URLs and nothing else.
// The course page's element keeps the wasm inlined (one file), and is given
// it here too (useInlinedWasm); the JS API keeps Emscripten's own loading.
// Nothing is fetched before a part is asked for: the page asks for the
// models' part once its first screen is up (core-client.js).
import { CORE_PARTS, TRAINING_WORKER_FILE, coreScriptFile, coreScriptGlobal, coreWasmFile } from './core-files.js';
import TRAINING_WORKER_SOURCE from './run/training-worker-source.js';

// The folder of the lab's files: captured while a classic script of it runs
// (afterwards document.currentScript is null); for the element's modules,
// which have no current script and may sit in another folder than the
// course page, the loader's own address (element-loader.js). (In the
// training worker there is no document: it is given the parts compiled.)
const scriptUrl = /** @type {HTMLScriptElement | null} */ (globalThis.document?.currentScript)?.src
  ?? globalThis.attentionLabLoaderUrl ?? globalThis.document?.baseURI ?? globalThis.location?.href;
const fallbackUrl = (part) => new URL(coreScriptFile(part), scriptUrl).href;
// The script of the worker the models train in (run/off-thread-training.js):
// beside app.js, or, where the bundle carries its text, a blob: URL made of it once.
let workerUrl;
export function trainingWorkerUrl() {
  workerUrl ??= TRAINING_WORKER_SOURCE
    ? URL.createObjectURL(new Blob([TRAINING_WORKER_SOURCE], { type: 'text/javascript' }))
    : new URL(TRAINING_WORKER_FILE, scriptUrl).href;
  return workerUrl;
}

// One policy for the page (its name is the one the CSP allows), made when a
// part first needs it: it makes the parts' script URLs and the training
// worker's, and no other.
let policy;
export function trustedScriptUrl(url) {
  if (!globalThis.trustedTypes) return url;
  policy ??= globalThis.trustedTypes.createPolicy('attention-lab-core', {
    createScriptURL(asked) {
      const allowed = [...CORE_PARTS.map(fallbackUrl), trainingWorkerUrl()];
      if (!allowed.includes(asked)) throw new TypeError(`attention-lab-core: only ${allowed.join(', ')} may be loaded, not ${asked}`);
      return asked;
    },
  });
  return policy.createScriptURL(url);
}

// The element carries each part's wasm in its script, in base64 (one file);
// it is compiled here all the same, so the training worker can be given it.
const inlined = {};
export function useInlinedWasm(part, base64) {
  inlined[part] = base64;
}
const decoded = (base64) => Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));

// Each part's compiled module, once instantiated here: the training worker
// is handed them (a module is shared, not copied), so it downloads and
// compiles nothing. A worker sets them as given (useCompiledParts).
const compiled = {};
export const compiledPart = (part) => compiled[part] ?? null;
export function useCompiledParts(parts) {
  Object.assign(compiled, parts);
}

function fromScript(part) {
  const url = fallbackUrl(part);
  const global = coreScriptGlobal(part);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = trustedScriptUrl(url);
    script.onload = () => {
      const base64 = globalThis[global];
      delete globalThis[global];
      script.remove();
      if (typeof base64 !== 'string') reject(new Error(`${coreScriptFile(part)} did not provide the core`));
      else resolve(decoded(base64));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`${coreWasmFile(part)} could not be loaded, nor ${coreScriptFile(part)}: are they beside app.js?`));
    };
    document.head.append(script);
  });
}

async function instantiate(part, imports) {
  if (compiled[part]) return { instance: await WebAssembly.instantiate(compiled[part], imports), module: compiled[part] };
  if (inlined[part]) return WebAssembly.instantiate(decoded(inlined[part]), imports);
  const url = new URL(coreWasmFile(part), scriptUrl);
  if (url.protocol !== 'file:') {
    // The page's first script (boot.js) may have begun the download already.
    const early = globalThis.attentionLabWasmFetch;
    const taken = early?.url === url.href;
    if (taken) delete globalThis.attentionLabWasmFetch;
    const response = await (taken ? early.response : fetch(url).catch(() => null));
    if (response?.ok) {
      // A server that does not say application/wasm cannot stream: compile the bytes instead.
      if (response.headers.get('Content-Type')?.startsWith('application/wasm')) {
        return WebAssembly.instantiateStreaming(response, imports);
      }
      return WebAssembly.instantiate(await response.arrayBuffer(), imports);
    }
  }
  return WebAssembly.instantiate(await fromScript(part), imports);
}

// Emscripten's factory of one part (its glue, built with the wasm left
// out), given the wasm's instance by us: a failure to get it rejects the
// module (Emscripten itself would only log it).
export function wasmFileModule(createGlueModule, part) {
  return function createAttentionModule(options = {}) {
    let fail;
    const failed = new Promise((resolve, reject) => {
      fail = reject;
    });
    const created = createGlueModule({
      ...options,
      instantiateWasm(imports, receiveInstance) {
        instantiate(part, imports).then(({ instance, module }) => {
          compiled[part] = module;
          receiveInstance(instance, module);
        }, fail);
        return {}; // the exports arrive later, through receiveInstance
      },
    });
    return Promise.race([created, failed]);
  };
}
