// The trained models' training calls, made in a Web Worker
// (run/training-worker.js) so that no frame waits for a training step:
// offThread(core) has the core's training calls (training-calls.js), each
// returning a promise of the core's result, with `trainMs`, the time the
// call took in the worker (what paces the chunks). The worker is started once a
// page first trains, and given the core's parts as the page compiled them.
// Where it cannot start (no Worker, a host's Content-Security-Policy or
// Trusted Types refusing its script, a page opened from disk, where the
// browser refuses a worker's file), the calls are the page's core's own,
// made at once: the run trains in frame-sized chunks on the page's thread
// as before. Both are the same wasm: the same numbers, bit for bit.
import { compiledPart, trainingWorkerUrl, trustedScriptUrl } from '../core-wasm-file.js';
import { TRAINING_CALLS } from './training-calls.js';

let worker; // undefined until first asked for; null where none can start
const pending = new Map(); // call id -> { call, args, resolve, reject }
let nextId = 1;
let fallbackCore = null; // the page's core, for calls the worker could not answer

// Where the page's training runs: 'worker', 'page' (no worker here) or
// null before the first call (the run view says it: data-thread).
export function trainingThread() {
  if (worker === undefined) return null;
  return worker ? 'worker' : 'page';
}

// The worker failed: every call waiting for it is made on the page, and so is every later one.
function workerFailed() {
  worker?.terminate();
  worker = null;
  for (const [id, { call, args, resolve, reject }] of pending) {
    pending.delete(id);
    try {
      resolve(fallbackCore[call](...args));
    } catch (error) {
      reject(error);
    }
  }
}

function answered({ data }) {
  if (data.failed) {
    workerFailed();
    return;
  }
  const waiting = pending.get(data.id);
  if (!waiting) return;
  pending.delete(data.id);
  if (data.error) {
    const { message, ...fields } = data.error;
    waiting.reject(Object.assign(new Error(message), fields));
  } else {
    waiting.resolve({ ...data.result, trainMs: data.ms });
  }
}

function startWorker() {
  const parts = { basics: compiledPart('basics'), models: compiledPart('models') };
  if (typeof Worker !== 'function' || !parts.basics || !parts.models) return null;
  try {
    const started = new Worker(/** @type {any} */ (trustedScriptUrl(trainingWorkerUrl())));
    started.addEventListener('message', answered);
    // Its script refused (a policy) or missing: the page trains instead.
    started.addEventListener('error', (event) => {
      event.preventDefault();
      workerFailed();
    });
    started.postMessage({ parts });
    return started;
  } catch {
    return null;
  }
}

function callOffThread(call, args) {
  if (worker === undefined) worker = startWorker();
  if (!worker) return fallbackCore[call](...args);
  return new Promise((resolve, reject) => {
    const id = nextId;
    nextId += 1;
    pending.set(id, { call, args, resolve, reject });
    worker.postMessage({ id, call, args });
  });
}

// The training calls of `core`, off the page's thread where a worker can run
// (made once: each chunk of a run asks for them).
const calls = Object.freeze(Object.fromEntries(TRAINING_CALLS.map((call) => [call, (...args) => callOffThread(call, args)])));
export function offThread(core) {
  fallbackCore = core;
  return calls;
}
