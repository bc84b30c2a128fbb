// The names of the service worker's caches: one per build of the page,
// `attention-lab-<version>` (offline/worker.js fills one; the page removes
// them all when its host opts out, offline/register.js).
export const CACHE_PREFIX = 'attention-lab-';
export const cacheName = (version) => `${CACHE_PREFIX}${version}`;
