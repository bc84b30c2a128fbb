// What tsc cannot find in web/src itself: what the build supplies (esbuild's
// `define` constants and the modules its plugins and aliases resolve:
// web/build.mjs, web/build-steps/offline-worker.mjs, the wasm parts' CMake
// outputs), and the page's hook for the tests.

// The modules an entry of the page's build needs with it (build.mjs
// modulePreloads): the entry's, each language's shared texts, and each
// section's code and texts in each language.
type EntryModules = {
  entry: string;
  preloads: {
    entry: string[];
    languages: Record<string, string[]>;
    sections: Record<string, { code: string[]; texts: Record<string, string[]> }>;
  };
};

// boot.js: the page's modules, the page as one script from disk, the first
// wasm file and the service worker.
declare const ATTENTION_LAB_PAGE: EntryModules & { disk: string; wasm: string; worker: string };

// element-loader.js: the element's modules, the one-script element, the
// first wasm file and the placeholders' CSS.
declare const ATTENTION_LAB_ELEMENT: EntryModules & { bundle: string; wasm: string; placeholderCss: string };

// offline/worker.js: the build the worker keeps, each file with its SHA-256.
declare const OFFLINE_BUILD: {
  version: string;
  files: { file: string; sha256: string }[];
};

// element.js: the element's stylesheet, made by the build's CSS plugin.
declare module 'attention-lab:css' {
  export const shadowCss: string;
  export const documentCss: string;
}

// wasm/attention-core.mjs: the Emscripten modules' factories.
declare module 'attention-core-cues-wasm' {
  export default function createModule(options?: object): Promise<any>;
}
declare module 'attention-core-basics-wasm' {
  export default function createModule(options?: object): Promise<any>;
}
declare module 'attention-core-models-wasm' {
  export default function createModule(options?: object): Promise<any>;
}

// main.js: the state and the core's counters, for the browser tests.
interface Window {
  attentionLab?: object;
}
