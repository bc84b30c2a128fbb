// The core's parts (wasm/CMakeLists.txt: cues, basics, models), each an
// Emscripten single-file module, made into what each bundle needs:
//   - the JS API (dist/attention-core.mjs) imports the modules as they
//     are, wasm inlined: one file (apiAliases), whose cues' part is its
//     basics' module (a smaller first part buys a single file nothing);
//   - the page takes each part's wasm out of its module: the wasm as a file
//     (attention-core-<part>.wasm), the same bytes in base64 in a classic
//     script for a page opened from disk (attention-core-<part>-wasm.js),
//     and the glue left without it, given the wasm by
//     web/src/core-wasm-file.js (corePartsPlugin());
//   - the element keeps the base64 in its one script, but hands it to
//     core-wasm-file.js as the page does (corePartsPlugin({ inlined })), so
//     its compiled parts can be given to the training worker; its cues'
//     part too is the basics' module.
// The page from disk and the element also carry the training worker's
// script as text (run/training-worker-source.js; workerSource).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CORE_PARTS, coreScriptFile, coreScriptGlobal, coreWasmFile } from '../src/core-files.js';

const INLINED_WASM = /(["'])data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)\1/;
// The specifier wasm/attention-core.mjs imports a part by.
const specifier = (part) => `attention-core-${part}-wasm`;

// In a bundle of one file, the part whose specifier names another's module.
const ONE_FILE_PARTS = Object.freeze({ cues: 'basics' });
const oneFilePart = (part) => ONE_FILE_PARTS[part] ?? part;

// modules: { cues, basics, models }, the paths of the parts' Emscripten modules.
export async function writeCoreParts(out, modules) {
  const glues = {};
  const inlinedWasm = {};
  for (const part of CORE_PARTS) {
    const glue = await readFile(modules[part], 'utf8');
    const found = glue.match(INLINED_WASM);
    if (!found) throw new Error(`${modules[part]}: no inlined wasm (is it a -sSINGLE_FILE=1 build?)`);
    const [, quote, base64] = found;
    inlinedWasm[part] = base64;
    await writeFile(path.join(out, coreWasmFile(part)), Buffer.from(base64, 'base64'));
    await writeFile(path.join(out, coreScriptFile(part)), `self.${coreScriptGlobal(part)}=${quote}${base64}${quote};\n`);
    // Still a data: URL to Emscripten, so it looks for no file of its own; the wasm comes through instantiateWasm.
    glues[part] = glue.replace(INLINED_WASM, `${quote}data:application/octet-stream;base64,${quote}`);
  }

  const apiAliases = Object.fromEntries(CORE_PARTS.map((part) => [specifier(part), modules[oneFilePart(part)]]));

  const wasmFile = path.resolve('web/src/core-wasm-file.js');
  // inlined: the wasm stays in the bundle (the element); workerSource: the
  // training worker's script, as text, for a bundle that cannot load it from
  // a file beside it (null: it stays run/training-worker-source.js's null).
  const corePartsPlugin = ({ inlined = false, workerSource = null } = {}) => ({
    name: 'attention-core-parts',
    setup(pluginBuild) {
      const parts = new RegExp(`^${specifier('(\\w+)')}$`);
      const partOf = (asked) => (inlined ? oneFilePart(asked) : asked);
      // Without side effects for the bundler: a bundle that never calls a part's loader (the training worker's: the cues') leaves it out.
      pluginBuild.onResolve({ filter: parts }, ({ path: asked }) => ({ path: partOf(asked.match(parts)[1]), namespace: 'core-part', sideEffects: false }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'core-part' }, ({ path: part }) => ({
        contents: `import glue from 'core-glue:${part}';\n`
          + `import { wasmFileModule, useInlinedWasm } from ${JSON.stringify(wasmFile)};\n`
          + (inlined ? `useInlinedWasm(${JSON.stringify(part)}, ${JSON.stringify(inlinedWasm[part])});\n` : '')
          + `export default wasmFileModule(glue, ${JSON.stringify(part)});\n`,
        loader: 'js',
        resolveDir: path.dirname(wasmFile),
      }));
      pluginBuild.onResolve({ filter: /^core-glue:/ }, ({ path: asked }) => ({ path: asked.slice('core-glue:'.length), namespace: 'core-glue' }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'core-glue' }, ({ path: part }) => ({
        contents: glues[part],
        loader: 'js',
        resolveDir: path.dirname(modules[part]),
      }));
      if (workerSource === null) return;
      pluginBuild.onResolve({ filter: /\/training-worker-source\.js$/ }, () => ({ path: 'training-worker-source', namespace: 'worker-source' }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'worker-source' }, () => ({
        contents: `export default ${JSON.stringify(workerSource)};\n`,
        loader: 'js',
      }));
    },
  });
  return { apiAliases, corePartsPlugin };
}
