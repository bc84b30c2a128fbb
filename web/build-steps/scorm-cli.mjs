// `npm run scorm -- --sections pooling,masking`: SCORM packages of chosen
// sections, from the lab built in dist/ (scorm-package.mjs).
//   --sections <ids>   comma-separated section ids (all when left out)
//   --version <v>      1.2 or 2004 (both when left out)
//   --title <text>     the package's title in the LMS (the sections' titles when left out)
//   --mastery <p>      the percentage of exercises right that passes, 0 to 100 (80 when left out)
//   --hide reveal      no "Show answer" button on the package's exercises
//   --dist <folder>    the built lab (dist)
//   --out <folder>     where the zips go (<dist>/scorm)
import { access } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SECTION_IDS } from '../src/sections/registry.js';
import {
  SCORM_FOLDER, SCORM_SCRIPT, writeScormPackages, chosenSections, masteryShare, hiddenParts,
} from './scorm-package.mjs';
import { VERSIONS } from './scorm-manifest.mjs';

const { values: args } = parseArgs({
  options: {
    sections: { type: 'string' },
    version: { type: 'string' },
    title: { type: 'string' },
    mastery: { type: 'string' },
    hide: { type: 'string' },
    dist: { type: 'string', default: 'dist' },
    out: { type: 'string' },
  },
});

try {
  const dist = path.resolve(args.dist);
  const sectionIds = args.sections === undefined
    ? SECTION_IDS
    : chosenSections(args.sections.split(',').map((id) => id.trim()).filter(Boolean));
  if (args.version !== undefined && !VERSIONS.includes(args.version)) {
    throw new Error(`--version ${args.version}: one of ${VERSIONS.join(', ')}`);
  }
  const mastery = args.mastery === undefined ? undefined : masteryShare(args.mastery);
  const hide = args.hide === undefined ? [] : hiddenParts(args.hide);
  await access(path.join(dist, SCORM_FOLDER, SCORM_SCRIPT)).catch(() => {
    throw new Error(`${path.join(dist, SCORM_FOLDER, SCORM_SCRIPT)} is missing: build the lab first (cmake --build --preset web)`);
  });
  const written = await writeScormPackages(dist, {
    versions: args.version ? [args.version] : VERSIONS,
    sectionIds,
    title: args.title,
    mastery,
    hide,
    outDir: args.out && path.resolve(args.out),
  });
  for (const { file, size } of written) console.log(`${path.relative(process.cwd(), file)} (${Math.round(size / 1024)} KB)`);
} catch (error) {
  console.error(`scorm: ${error.message}`);
  process.exitCode = 1;
}
