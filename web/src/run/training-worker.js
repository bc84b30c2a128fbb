// The Web Worker the page's models train in (run/off-thread-training.js):
// the basics' and the models' parts, given compiled by the page (nothing is downloaded or
// compiled again), instantiated once; then each message is one training
// call, answered with the core's result, its arrays' buffers handed over
// rather than copied. The same wasm as the page's: the same numbers, bit for
// bit. Only the training calls are served; a core error comes back with its
// fields (argument, expected, got, index), for the section to show.
import { loadAttentionCore } from '../../../wasm/attention-core.mjs';
import { useCompiledParts } from '../core-wasm-file.js';
import { TRAINING_CALLS } from './training-calls.js';

let core = null;
// This worker's scope (the page's typings know only a window's postMessage).
const scope = /** @type {{ postMessage(message: any, transfer?: Transferable[]): void }} */ (/** @type {unknown} */ (self));

// The buffers of a result's typed arrays, each once (to hand over).
function buffersOf(value, found = new Set()) {
  if (ArrayBuffer.isView(value)) found.add(value.buffer);
  else if (value && typeof value === 'object') for (const field of Object.values(value)) buffersOf(field, found);
  return found;
}

const fieldsOf = (error) => ({ name: error?.name, message: String(error?.message ?? error), ...Object.fromEntries(Object.entries(error ?? {})) });

self.addEventListener('message', async ({ data }) => {
  if (data.parts) {
    useCompiledParts(data.parts);
    core = loadAttentionCore();
    core.catch((error) => scope.postMessage({ failed: String(error?.message ?? error) })); // the page trains instead
    return;
  }
  const { id, call, args } = data;
  try {
    if (!TRAINING_CALLS.includes(call)) throw new Error(`the training worker serves ${TRAINING_CALLS.join(', ')}, not ${call}`);
    const started = performance.now();
    const result = (await core)[call](...args);
    // ms: the call's own time, which paces the chunks (the page's thread may be busy meanwhile).
    const answer = { id, result, ms: performance.now() - started };
    try {
      scope.postMessage(answer, [...buffersOf(result)]);
    } catch {
      scope.postMessage(answer); // a buffer that cannot be handed over is copied
    }
  } catch (error) {
    scope.postMessage({ id, error: fieldsOf(error) });
  }
});
