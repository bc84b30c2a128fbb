// The tests' copy of dist/: the same files, with probe.js loaded first in the
// two HTML pages (the lab and the course page), served over http by esbuild
// and reachable as file:// URLs.
import * as esbuild from 'esbuild';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const DIST = path.resolve('dist');
const PROBE = new URL('./probe.js', import.meta.url);
const PAGES = ['index.html', 'course-example.html'];

export async function probedDist() {
  const directory = await mkdtemp(path.join(tmpdir(), 'attention-lab-engines-'));
  await cp(DIST, directory, { recursive: true });
  await writeFile(path.join(directory, 'engine-probe.js'), await readFile(PROBE));
  for (const page of PAGES) {
    const file = path.join(directory, page);
    const html = await readFile(file, 'utf8');
    // Right after the policy, before any script of the page: a plain script runs before deferred ones.
    const marked = html.replace(/(<meta http-equiv="Content-Security-Policy"[^>]*>)/, '$1\n  <script src="engine-probe.js"></script>');
    if (marked === html) throw new Error(`${page}: no Content-Security-Policy meta to put the probe after`);
    await writeFile(file, marked);
  }
  const context = await esbuild.context({ logLevel: 'silent' });
  const { port } = await context.serve({ servedir: directory, host: '127.0.0.1', port: 0 });
  return {
    origin: `http://127.0.0.1:${port}`,
    fileUrl: (page) => pathToFileURL(path.join(directory, page)).href,
    async close() {
      await context.dispose();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
