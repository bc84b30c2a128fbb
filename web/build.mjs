// Builds dist/ with esbuild:
//   dist/attention-core.mjs  the JS API as one ES module (wasm inlined), for Node and course pages;
//   the page (added by the page's own build step below).
// Usage: node web/build.mjs --wasm-module <build>/wasm/attention-core-wasm.mjs --out dist
import { build } from 'esbuild';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: { 'wasm-module': { type: 'string' }, out: { type: 'string', default: 'dist' } },
});
if (!args['wasm-module']) throw new Error('--wasm-module: expected the path of attention-core-wasm.mjs');
const wasmModule = path.resolve(args['wasm-module']);
const out = path.resolve(args.out);
await mkdir(out, { recursive: true });

const common = {
  bundle: true,
  alias: { 'attention-core-wasm': wasmModule },
  logLevel: 'warning',
  legalComments: 'none',
};

await build({
  ...common,
  entryPoints: ['wasm/attention-core.mjs'],
  outfile: path.join(out, 'attention-core.mjs'),
  format: 'esm',
  platform: 'neutral',
});
