// The SCORM packages (web/build-steps/scorm-package.mjs, scorm-manifest.mjs,
// scorm-cli.mjs) from the built dist/: the whole lab's, made by the build,
// and one of chosen sections made by `npm run scorm`. Each zip's
// imsmanifest.xml is read by a real XML parser (Python's ElementTree, from
// Debian's python3): well formed, in its version's namespaces, one SCO,
// and its resource lists every file of the zip. Needs dist/ (the build).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { SECTIONS, SECTION_IDS } from '../../web/src/sections/registry.js';
import { makeScormPackage, launchPage, masteryShare, hiddenParts } from '../../web/build-steps/scorm-package.mjs';
import { scormManifest } from '../../web/build-steps/scorm-manifest.mjs';

const DIST = path.resolve('dist');
const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';
const CP_12 = 'http://www.imsproject.org/xsd/imscp_rootv1p1p2';
const ADLCP_12 = 'http://www.adlnet.org/xsd/adlcp_rootv1p2';
const CP_2004 = 'http://www.imsglobal.org/xsd/imscp_v1p1';
const ADLCP_2004 = 'http://www.adlnet.org/xsd/adlcp_v1p3';
const IMSSS = 'http://www.imsglobal.org/xsd/imsss';

// The manifest as ElementTree reads it: every element with its namespaced tag, attributes and text.
const READ_XML = `
import json, sys, xml.etree.ElementTree as ET
def walk(e):
    return {"tag": e.tag, "attrs": dict(e.attrib), "text": (e.text or "").strip(), "children": [walk(c) for c in e]}
print(json.dumps(walk(ET.fromstring(sys.stdin.buffer.read()))))
`;
const parseXml = (text) => JSON.parse(execFileSync(PYTHON, ['-c', READ_XML], { input: text }).toString());
const q = (namespace, name) => `{${namespace}}${name}`;
const child = (node, tag) => node.children.find((c) => c.tag === tag);
const children = (node, tag) => node.children.filter((c) => c.tag === tag);

let work;
before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'scorm-package-'));
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

const unzip = async (file) => unzipSync(new Uint8Array(await readFile(file)));

// The structure every package shares; returns { manifest, resource, item }.
function checkManifest(files, { version, identifier }) {
  const [cp, adlcp, scormType] = version === '1.2' ? [CP_12, ADLCP_12, 'scormtype'] : [CP_2004, ADLCP_2004, 'scormType'];
  assert.ok(files['imsmanifest.xml'], 'imsmanifest.xml at the root of the zip');
  const manifest = parseXml(strFromU8(files['imsmanifest.xml']));
  assert.equal(manifest.tag, q(cp, 'manifest'));
  assert.equal(manifest.attrs.identifier, identifier);
  const metadata = child(manifest, q(cp, 'metadata'));
  assert.equal(child(metadata, q(cp, 'schema')).text, 'ADL SCORM');
  assert.equal(child(metadata, q(cp, 'schemaversion')).text, version === '1.2' ? '1.2' : '2004 4th Edition');
  const organizations = child(manifest, q(cp, 'organizations'));
  const [organization] = children(organizations, q(cp, 'organization'));
  assert.equal(organizations.attrs.default, organization.attrs.identifier);
  const items = children(organization, q(cp, 'item'));
  assert.equal(items.length, 1, 'one item');
  const resources = children(child(manifest, q(cp, 'resources')), q(cp, 'resource'));
  assert.equal(resources.length, 1, 'one resource: one SCO');
  const [resource] = resources;
  assert.equal(items[0].attrs.identifierref, resource.attrs.identifier);
  assert.equal(resource.attrs[q(adlcp, scormType)], 'sco');
  assert.equal(resource.attrs.type, 'webcontent');
  assert.equal(resource.attrs.href, 'index.html');
  // Identifiers: XML IDs, unique in the manifest.
  const ids = [manifest, organization, items[0], resource].map((node) => node.attrs.identifier);
  for (const id of ids) assert.match(id, /^[A-Za-z][\w.-]*$/);
  assert.equal(new Set(ids).size, ids.length);
  // Every file of the zip is listed, and every file listed is in the zip.
  const listed = children(resource, q(cp, 'file')).map((file) => file.attrs.href).sort();
  const inZip = Object.keys(files).filter((name) => name !== 'imsmanifest.xml').sort();
  assert.deepEqual(listed, inZip);
  for (const file of ['index.html', 'attention-lab-scorm.js', 'app.css', 'attention-core-basics.wasm', 'attention-core-basics-wasm.js',
    'attention-core-models.wasm', 'attention-core-models-wasm.js']) {
    assert.ok(inZip.includes(file), file);
  }
  return { manifest, item: items[0], resource, cp };
}

const exerciseCount = (ids) => SECTIONS.filter(({ id }) => ids.includes(id)).reduce((sum, { exercises = [] }) => sum + exercises.length, 0);

for (const [version, tag] of [['1.2', 'scorm12'], ['2004', 'scorm2004']]) {
  test(`the build's SCORM ${version} package of the whole lab: its manifest, its page, its bytes`, async () => {
    const file = path.join(DIST, 'scorm', `attention-lab-${tag}.zip`);
    const files = await unzip(file);
    const { item, cp } = checkManifest(files, { version, identifier: `attention-lab-${tag}` });
    assert.equal(child(item, q(cp, 'title')).text, 'Attention Lab');
    if (version === '1.2') {
      assert.equal(child(item, q(ADLCP_12, 'masteryscore')).text, '80');
    } else {
      const objective = child(child(child(item, q(IMSSS, 'sequencing')), q(IMSSS, 'objectives')), q(IMSSS, 'primaryObjective'));
      assert.equal(objective.attrs.satisfiedByMeasure, 'true');
      assert.equal(child(objective, q(IMSSS, 'minNormalizedMeasure')).text, '0.8');
    }
    const page = strFromU8(files['index.html']);
    assert.match(page, new RegExp(`<meta name="attention-lab:scorm" content="${version.replace('.', '\\.')}">`));
    assert.match(page, new RegExp(`<meta name="attention-lab:sections" content="${SECTION_IDS.join(',')}">`));
    assert.match(page, /<script src="attention-lab-scorm\.js" defer><\/script>/);
    assert.doesNotMatch(page, /app\.js/);
    // The strict policy of the lab's page, unchanged.
    const lab = await readFile(path.join(DIST, 'index.html'), 'utf8');
    const policy = (html) => html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)[1];
    assert.equal(policy(page), policy(lab));
    assert.doesNotMatch(page, /<script>|<script [^>]*>[^<]/, 'no inline script');
    // The same dist gives the same bytes: the build's zip is made again here, byte for byte.
    const again = await makeScormPackage(DIST, { version });
    assert.deepEqual(Buffer.from(again.bytes), await readFile(file));
    assert.equal(Buffer.from(files['attention-core-basics.wasm']).equals(await readFile(path.join(DIST, 'attention-core-basics.wasm'))), true);
  });
}

// The command as docs/learning-and-teaching.md writes it, run with --out added (dist/ is left as the build made it).
// `nth`: the section's first command, or a later one (the grading recipe's).
async function documentedCommand(nth = 0) {
  const page = await readFile('docs/learning-and-teaching.md', 'utf8');
  const section = page.slice(page.indexOf('## Learning platforms (SCORM)'));
  return [...section.matchAll(/```sh\n(npm run scorm -- [^\n]+)\n```/g)][nth][1];
}

test('npm run scorm -- --sections pooling,masking, as the docs write it: both versions, those sections only, titled by them', async () => {
  const command = await documentedCommand();
  assert.equal(command, 'npm run scorm -- --sections pooling,masking');
  const [npm, ...args] = command.split(' ');
  const run = spawnSync(npm, [...args, '--out', work], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /attention-lab-scorm12-pooling-masking\.zip/);
  assert.match(run.stdout, /attention-lab-scorm2004-pooling-masking\.zip/);
  for (const [version, tag] of [['1.2', 'scorm12'], ['2004', 'scorm2004']]) {
    const files = await unzip(path.join(work, `attention-lab-${tag}-pooling-masking.zip`));
    const { item, cp } = checkManifest(files, { version, identifier: `attention-lab-${tag}-pooling-masking` });
    assert.equal(child(item, q(cp, 'title')).text, 'Attention Lab: Average pooling vs Nadaraya–Watson; Masked softmax');
    const page = strFromU8(files['index.html']);
    assert.match(page, /<meta name="attention-lab:sections" content="pooling,masking">/);
    const sectionsInPage = [...page.matchAll(/<section id="([\w-]+)" data-section="\1">/g)].map((match) => match[1]);
    assert.deepEqual(sectionsInPage, ['pooling', 'masking']);
    const links = [...page.matchAll(/<a href="#([\w-]+)" data-i18n="nav\./g)].map((match) => match[1]);
    assert.deepEqual(links, ['pooling', 'masking']);
  }
  assert.ok(exerciseCount(['pooling', 'masking']) > 0);
});

test('--version and --title: one package, the course\'s title (escaped), sections in the lab\'s order whatever the order named', async () => {
  const run = spawnSync('node', ['web/build-steps/scorm-cli.mjs', '--sections', 'masking,pooling', '--version', '1.2',
    '--title', 'Week 3: <attention> & pooling', '--out', path.join(work, 'titled')], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim().split('\n').length, 1);
  const files = await unzip(path.join(work, 'titled', 'attention-lab-scorm12-pooling-masking.zip'));
  const { item, cp, manifest } = checkManifest(files, { version: '1.2', identifier: 'attention-lab-scorm12-pooling-masking' });
  assert.equal(child(item, q(cp, 'title')).text, 'Week 3: <attention> & pooling');
  assert.equal(child(children(child(manifest, q(cp, 'organizations')), q(cp, 'organization'))[0], q(cp, 'title')).text, 'Week 3: <attention> & pooling');
});

test('the command refuses an unknown section or version, and says which sections there are', () => {
  const unknown = spawnSync('node', ['web/build-steps/scorm-cli.mjs', '--sections', 'pooling,nope', '--out', work], { encoding: 'utf8' });
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /unknown section nope: the sections are cues, data, pooling/);
  const version = spawnSync('node', ['web/build-steps/scorm-cli.mjs', '--version', '3', '--out', work], { encoding: 'utf8' });
  assert.equal(version.status, 1);
  assert.match(version.stderr, /--version 3: one of 1\.2, 2004/);
});

test('the launch page: chosen sections in the registry\'s order; a changed index.html fails loudly', () => {
  const html = '<meta charset="utf-8">\n  <!-- the offline worker -->\n  <meta name="attention-lab:offline" content="on">\n  <link rel="manifest" href="manifest.webmanifest">\n' +
    '<a href="#pooling" data-i18n="nav.pooling">P</a>\n<a href="#masking" data-i18n="nav.masking">M</a>\n' +
    '<section id="pooling" data-section="pooling"></section>\n<section id="masking" data-section="masking"></section>\n<script src="app.js" defer></script>';
  const others = SECTION_IDS.filter((id) => id !== 'masking');
  const withAll = html.replace('<section id="pooling"', others.filter((id) => id !== 'pooling').map((id) => `<a href="#${id}">x</a>\n<section id="${id}" data-section="${id}"></section>\n`).join('') + '<section id="pooling"');
  const page = launchPage(withAll, { version: '2004', sectionIds: ['masking'] });
  assert.match(page, /content="masking"/);
  assert.doesNotMatch(page, /data-section="pooling"|href="#pooling"/);
  assert.match(page, /data-section="masking"/);
  assert.doesNotMatch(page, /attention-lab:offline|rel="manifest"/, 'no service worker opt-in, no app manifest');
  assert.throws(() => launchPage(html.replace('app.js', 'main.js'), { version: '1.2', sectionIds: SECTION_IDS }), /app\.js's script once, found it 0 times/);
});

// The grading recipe as the docs write it: the pass mark in both manifests
// and in the page, and "Show answer" hidden (the page's meta, read by
// web/src/scorm/launch.js; tests/browser/scorm-grading.test.mjs runs it).
test('npm run scorm -- ... --mastery 60 --hide reveal, as the docs write it: the pass mark in the manifests and the page, reveal hidden', async () => {
  const command = await documentedCommand(1);
  assert.equal(command, 'npm run scorm -- --sections pooling,masking --mastery 60 --hide reveal');
  const [npm, ...args] = command.split(' ');
  const out = path.join(work, 'graded');
  const run = spawnSync(npm, [...args, '--out', out], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  for (const [version, tag] of [['1.2', 'scorm12'], ['2004', 'scorm2004']]) {
    const files = await unzip(path.join(out, `attention-lab-${tag}-pooling-masking.zip`));
    const { item } = checkManifest(files, { version, identifier: `attention-lab-${tag}-pooling-masking` });
    if (version === '1.2') {
      assert.equal(child(item, q(ADLCP_12, 'masteryscore')).text, '60');
    } else {
      const objective = child(child(child(item, q(IMSSS, 'sequencing')), q(IMSSS, 'objectives')), q(IMSSS, 'primaryObjective'));
      assert.equal(child(objective, q(IMSSS, 'minNormalizedMeasure')).text, '0.6');
    }
    const page = strFromU8(files['index.html']);
    assert.match(page, /<meta name="attention-lab:mastery" content="60">/);
    assert.match(page, /<meta name="attention-lab:hide" content="reveal">/);
  }
  // Without the options: 80, and nothing hidden.
  const plain = strFromU8((await unzip(path.join(DIST, 'scorm', 'attention-lab-scorm12.zip')))['index.html']);
  assert.match(plain, /<meta name="attention-lab:mastery" content="80">/);
  assert.doesNotMatch(plain, /attention-lab:hide/);
});

test('--mastery and --hide: a value the command cannot use stops it, naming the option, and writes nothing', async () => {
  const out = path.join(work, 'refused');
  for (const [option, value, message] of [
    ['--mastery', '120', /--mastery 120: a percentage from 0 to 100/],
    ['--mastery', '-5', /--mastery -5: a percentage from 0 to 100/],
    ['--mastery', '0.8', /--mastery 0\.8: a percentage, not a share: 80 for 80 %/],
    ['--mastery', 'eighty', /--mastery eighty: a percentage/],
    ['--mastery', '62.555', /--mastery 62\.555: a percentage from 0 to 100 \(at most two decimals\)/],
    ['--hide', 'answers', /--hide answers: a package can hide reveal/],
    ['--hide', 'reveal,controls', /--hide reveal,controls: a package can hide reveal/],
  ]) {
    const run = spawnSync('node', ['web/build-steps/scorm-cli.mjs', '--sections', 'pooling', '--version', '1.2', `${option}=${value}`, '--out', out], { encoding: 'utf8' });
    if (message === null) {
      assert.equal(run.status, 0, `${option} ${value}: ${run.stderr}`);
      continue;
    }
    assert.equal(run.status, 1, `${option} ${value}`);
    assert.match(run.stderr, message);
  }
  assert.equal(masteryShare('62.5'), 0.625);
  assert.equal(masteryShare('0'), 0);
  assert.equal(masteryShare('100'), 1);
  assert.deepEqual(hiddenParts(' reveal '), ['reveal']);
  assert.throws(() => hiddenParts(''), /--hide : a package can hide reveal/);
  const manifest = (version, mastery) => scormManifest(version, { identifier: 'x', title: 't', launch: 'index.html', files: ['index.html'], mastery });
  assert.match(manifest('1.2', 0.625), /<adlcp:masteryscore>62\.5<\/adlcp:masteryscore>/);
  assert.match(manifest('2004', 0.625), /<imsss:minNormalizedMeasure>0\.625<\/imsss:minNormalizedMeasure>/);
  assert.throws(() => manifest('2004', 1.5), /a share in \[0, 1\]/);
});
