// The page's import graph (web/src): no module imports itself through
// others. A circle makes a module's bindings undefined while the other half
// of the circle runs, depending on which side the page loads first. Walks
// every static import and re-export (import() is the page loading a part
// later, not a dependency of the code that asks for it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = 'web/src';
const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/gm;

async function moduleFiles(folder) {
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return moduleFiles(file);
    return entry.name.endsWith('.js') ? [file] : [];
  }));
  return nested.flat();
}

// module -> the modules it imports statically, all as paths from the repository root.
async function importGraph() {
  const files = await moduleFiles(ROOT);
  const graph = new Map();
  for (const file of files) {
    const source = await readFile(file, 'utf8');
    graph.set(file, [...source.matchAll(STATIC_IMPORT)].map(([, specifier]) => path.join(path.dirname(file), specifier)));
  }
  return graph;
}

// Every circle once, as the path around it (depth-first, colouring modules).
function circles(graph) {
  const found = [];
  const state = new Map(); // undefined: unseen, 1: on the current path, 2: done
  const trail = [];
  const visit = (module) => {
    state.set(module, 1);
    trail.push(module);
    for (const next of graph.get(module) ?? []) {
      if (state.get(next) === 1) found.push([...trail.slice(trail.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    trail.pop();
    state.set(module, 2);
  };
  for (const module of graph.keys()) if (!state.has(module)) visit(module);
  return found;
}

test('the walk finds the static imports (and a circle when one is there)', async () => {
  const graph = await importGraph();
  assert.ok(graph.size > 100, `${graph.size} modules`);
  assert.ok(graph.get('web/src/generated/section-list.js').includes('web/src/sections/cues/cues.js'));
  // The check itself: a two-module circle put into a copy of the graph is found.
  const looped = new Map(graph);
  looped.set('web/src/format.js', [...graph.get('web/src/format.js'), 'web/src/state.js']);
  looped.set('web/src/state.js', [...graph.get('web/src/state.js'), 'web/src/format.js']);
  assert.ok(circles(looped).some((circle) => circle.includes('web/src/format.js') && circle.includes('web/src/state.js')));
});

test('every static import into web/src names a module that is there', async () => {
  const graph = await importGraph();
  const missing = [...graph].flatMap(([module, imports]) => imports.filter((target) => target.startsWith(`${ROOT}/`) && !graph.has(target)).map((target) => `${module} -> ${target}`));
  assert.deepEqual(missing, []);
});

test('no import circle in web/src', async () => {
  const graph = await importGraph();
  assert.deepEqual(circles(graph).map((circle) => circle.join(' -> ')), []);
});
