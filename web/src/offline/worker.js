// The page's service worker (dist/offline-worker.js): a second visit over
// http comes from the browser's cache storage, and works with the network
// off. One cache per build, named by the build's version (a hash of the
// page's files, written by web/build-steps/offline-worker.mjs), is filled
// whole before the worker installs and never mixed with another build's:
// - install: every file of the build is fetched and its SHA-256 checked
//   against the build's; a file of another build (the host updated half-way)
//   fails the install, and the page stays with the worker it has;
// - a new build's worker waits (no skipWaiting) while a page of the old one
//   is open: a page keeps the files of the build it started with. It takes
//   over when no page of the old build is left, or when the page's first
//   script asks it to as the only page open (web/src/offline/register.js),
//   before that page runs anything;
// - activate: the other builds' caches are deleted;
// - fetch: a file of the build from its cache (the page's address, with any
//   query, is index.html); anything else goes to the network as it would
//   without a worker (a course page of the same site, the npm files).
import { CACHE_PREFIX, cacheName } from './cache-names.js';

// The worker's global scope, as far as it is used: tsc reads this file with
// the page's DOM lib, where `self` is a window.
/**
 * @typedef {Event & { waitUntil(promise: Promise<unknown>): void }} ExtendableEvent
 * @typedef {ExtendableEvent & { request: Request, respondWith(response: Promise<Response>): void }} FetchEvent
 * @typedef {ExtendableEvent & MessageEvent} ExtendableMessageEvent
 * @typedef {{
 *   registration: ServiceWorkerRegistration,
 *   clients: { matchAll(options: { type: string, includeUncontrolled: boolean }): Promise<readonly unknown[]> },
 *   skipWaiting(): Promise<void>,
 *   addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void,
 *   addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void,
 *   addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void,
 * }} ServiceWorkerScope
 */
const workerScope = /** @type {ServiceWorkerScope} */ (/** @type {unknown} */ (self));

/* global OFFLINE_BUILD */
const { version, files } = OFFLINE_BUILD;
const CACHE = cacheName(version);
const PAGE = 'index.html';
const scope = workerScope.registration.scope;
const fileUrl = (file) => new URL(file, scope).href;
const BUILD_FILES = new Map(files.map(({ file, sha256 }) => [fileUrl(file), sha256]));

const hex = (buffer) => [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

async function precache() {
  const responses = await Promise.all([...BUILD_FILES].map(async ([url, sha256]) => {
    const response = await fetch(url, { cache: 'no-cache' });
    if (!response.ok) throw new Error(`${url}: ${response.status} while installing build ${version}`);
    const found = hex(await crypto.subtle.digest('SHA-256', await response.clone().arrayBuffer()));
    if (found !== sha256) throw new Error(`${url}: not the file of build ${version} (the host holds another build)`);
    return /** @type {[string, Response]} */ ([url, response]);
  }));
  const cache = await caches.open(CACHE);
  await Promise.all(responses.map(([url, response]) => cache.put(url, response)));
}

workerScope.addEventListener('install', (event) => {
  event.waitUntil(precache().catch(async (error) => {
    await caches.delete(CACHE); // nothing half-filled stays behind
    throw error;
  }));
});

workerScope.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
    .map((name) => caches.delete(name)))));
});

// The address a request is answered from, or null for the network.
function cachedAs(request) {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  url.hash = '';
  if (request.mode === 'navigate') {
    url.search = '';
    return url.href === scope || url.href === fileUrl(PAGE) ? fileUrl(PAGE) : null;
  }
  return BUILD_FILES.has(url.href) ? url.href : null;
}

workerScope.addEventListener('fetch', (event) => {
  const url = cachedAs(event.request);
  if (!url) return;
  // caches.match, not caches.open: a cache removed (the host opted out) is not made again, empty.
  event.respondWith(caches.match(url, { cacheName: CACHE }).then((response) => response ?? fetch(event.request)));
});

// From a page: its build's version, or a take-over asked by the only page open.
workerScope.addEventListener('message', (event) => {
  const [port] = event.ports;
  if (event.data === 'version') port?.postMessage(version);
  if (event.data !== 'take-over') return;
  event.waitUntil(workerScope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (pages) => {
    const alone = pages.length <= 1;
    if (alone) await workerScope.skipWaiting();
    port?.postMessage(alone);
  }));
});
