// Where the page's service worker (offline-worker.js) may run, and its
// registration, from the page's first script (boot.js). The rule
// (docs/learning-and-teaching.md, "Offline and installing as an app"):
// only the lab's own page, index.html, at the top of its window over
// http(s), with the host's opt-in in its <meta name="attention-lab:offline"
// content="on"> (set in the shipped index.html). Never from disk, in a
// frame (the iframe mode, a learning platform's), with #embed=, in a SCORM
// package (its page starts scorm/launch.js, not boot.js) or from the
// <attention-lab> element and the notebook (they never load boot.js). A
// host that turns the meta off also removes a worker registered before, and
// its caches.
// What was decided is written on <html data-offline> (the tests read it).
import { CACHE_PREFIX } from './cache-names.js';

const OPT_IN = 'meta[name="attention-lab:offline"]';

// Why the worker may not run here, or null when it may.
export function offlineRefusal() {
  if (!('serviceWorker' in navigator)) return 'unsupported';
  if (!/^https?:$/.test(location.protocol)) return 'not-http';
  if (window !== window.top) return 'framed';
  if (/[#&]embed=/.test(location.hash)) return 'embedded';
  if (/** @type {HTMLMetaElement | null} */ (document.querySelector(OPT_IN))?.content !== 'on') return 'host-opted-out';
  return null;
}

const decided = (state) => {
  document.documentElement.dataset.offline = state;
};

// A worker of a new build that waits while this page's build runs: asked to
// take over before the page runs anything, it does when this is the only
// page open; the page then reloads from the new build's files. Resolves
// false when there is nothing to take over (another page is open, the
// worker went away, the browser keeps no workers here), and never when the
// page reloads: the page starts either way.
export async function takeOverByNewBuild() {
  if (offlineRefusal() || !navigator.serviceWorker.controller) return false;
  const registration = await navigator.serviceWorker.getRegistration().catch(() => null);
  const waiting = registration?.waiting;
  if (!waiting) return false;
  const channel = new MessageChannel();
  const answered = new Promise((resolve) => {
    channel.port1.onmessage = ({ data }) => resolve(data === true);
    waiting.addEventListener('statechange', () => waiting.state === 'redundant' && resolve(false));
  });
  const changed = new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  waiting.postMessage('take-over', [channel.port2]);
  if (!(await answered)) return false;
  decided('updating');
  await changed;
  location.reload();
  return new Promise(() => {});
}

// Registers the worker (workerUrl: its address; trust makes it the
// TrustedScriptURL register() takes where Trusted Types are enforced), or
// removes it when the host opted out.
export async function registerOfflineWorker(workerUrl, trust = (address) => address) {
  const refusal = offlineRefusal();
  if (refusal === 'host-opted-out') await removeOfflineWorker(workerUrl).catch(() => {});
  if (refusal) {
    decided(refusal);
    return;
  }
  // A host that cannot serve it (an old copy without the file) keeps the page as it was.
  await Promise.resolve().then(() => navigator.serviceWorker.register(trust(workerUrl)))
    .then(() => decided('registered'), () => decided('failed'));
}

// The lab's worker, and no other of the host, with its caches.
async function removeOfflineWorker(workerUrl) {
  const registration = await navigator.serviceWorker.getRegistration();
  const worker = registration?.active ?? registration?.waiting ?? registration?.installing;
  if (worker?.scriptURL !== workerUrl) return;
  await registration.unregister();
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX)).map((name) => caches.delete(name)));
}
