// Runs `node <arguments>` (a ctest entry's test files) after printing the
// builds of the three browser engines the tests drive, as the machine has
// them: a failure in CI's log then names the build it ran on, and a layout
// that moves with a browser update is told from one that moves with the page.
//
//   node tests/browser/with-browser-versions.mjs --test a.test.mjs b.test.mjs
import { spawn, spawnSync } from 'node:child_process';

function versionOf(command, args) {
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: 20_000 });
  if (run.error) return `not found (${command})`;
  // Debian's chromium wrapper prints shell noise on stderr; the version is stdout's.
  return run.stdout.trim().split('\n').at(-1) || `no version (${command}, exit ${run.status})`;
}

const webkitPackage = 'libwebkit2gtk-4.1-0';
const versions = [
  ['Chromium', versionOf(process.env.CHROMIUM ?? '/usr/bin/chromium', ['--version'])],
  ['Firefox', versionOf(process.env.FIREFOX ?? '/usr/bin/firefox-esr', ['--version'])],
  // MiniBrowser has no --version: the WebKitGTK library it runs is the package's.
  ['WebKitGTK', `${webkitPackage} ${versionOf('dpkg-query', ['-W', '-f=${Version}', webkitPackage])}`],
];
for (const [engine, version] of versions) console.log(`browser build: ${engine}: ${version}`);

const tests = spawn(process.execPath, process.argv.slice(2), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => tests.kill(signal));
tests.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
