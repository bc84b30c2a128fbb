// What tsc cannot find in web/src itself: what the build supplies (esbuild's
// `define` constants and the modules its plugins and aliases resolve:
// web/build.mjs, web/build-steps/offline-worker.mjs, the wasm parts' CMake
// outputs), and the page's hook for the tests.

// boot.js: the page's entry, the files to preload with it, and the names of
// the disk script, the first wasm file and the service worker.
declare const ATTENTION_LAB_PAGE: {
  entry: string;
  disk: string;
  wasm: string;
  worker: string;
  preloads: {
    entry: string[];
    languages: Record<string, string[]>;
    sections: Record<string, { code: string[]; texts: Record<string, string[]> }>;
  };
};

// element-loader.js: the element's entry and the files to preload with it
// (as the page's), the one-script element, the first wasm file and the
// placeholders' CSS.
declare const ATTENTION_LAB_ELEMENT: {
  entry: string;
  bundle: string;
  wasm: string;
  placeholderCss: string;
  preloads: {
    entry: string[];
    languages: Record<string, string[]>;
    sections: Record<string, { code: string[]; texts: Record<string, string[]> }>;
  };
};

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

// wasm/attention-core.mjs: the two Emscripten modules' factories.
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
