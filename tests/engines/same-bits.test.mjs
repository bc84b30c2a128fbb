// The same bits everywhere: the core battery (core-battery.mjs, about 41,000
// float64 results of every function of the JS API, training included) run on
// dist/attention-core.mjs in Node and in the page's origin in Chromium,
// Firefox and WebKit, compared bit for bit. The core's numbers are the
// lesson; a learner on an iPad must see what one on a Chromebook sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENGINES, launchEngine } from './drivers.mjs';
import { probedDist } from './probed-dist.mjs';
import { coreBattery } from './core-battery.mjs';

const chosen = process.env.ENGINES ? process.env.ENGINES.split(',') : ENGINES;

// The first difference of two batteries, or null.
function firstDifference(expected, actual) {
  for (const name of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    const [a, b] = [expected[name] ?? [], actual[name] ?? []];
    if (a.length !== b.length) return `${name}: ${a.length} values in Node, ${b.length} here`;
    const i = a.findIndex((bits, k) => bits !== b[k]);
    if (i >= 0) return `${name}[${i}]: bits ${a[i]} in Node, ${b[i]} here`;
  }
  return null;
}

test('the core battery gives the same bits in Node, Chromium, Firefox and WebKit', async () => {
  const { loadAttentionCore } = await import(pathToFileURL(path.resolve('dist', 'attention-core.mjs')).href);
  const reference = await coreBattery(await loadAttentionCore());
  const count = Object.values(reference).reduce((sum, values) => sum + values.length, 0);
  assert.ok(count > 40000, `${count} results`);
  const site = await probedDist();
  try {
    for (const name of chosen) {
      const engine = await launchEngine(name);
      try {
        const tab = await engine.open(`${site.origin}/`);
        const started = Date.now();
        const results = await tab.evaluate(`(async () => {
          const { loadAttentionCore } = await import('/attention-core.mjs');
          return (${coreBattery})(await loadAttentionCore());
        })()`);
        assert.equal(firstDifference(reference, results), null, name);
        console.log(`${name}: ${count} results, the same bits as Node's (${Date.now() - started} ms)`);
      } finally {
        await engine.close();
      }
    }
  } finally {
    await site.close();
  }
});
