// States and hashes shared by the URL-state tests: tests/web/url-state.test.mjs
// reads them with the parser, tests/browser/url-state.test.mjs opens the
// page with them.
import { parameters, clampValue, createStore, repairState } from '../../web/src/state.js';
import { parseHash } from '../../web/src/url-state.js';

// A valid value other than the default, for any entry the table has (also
// the entries other sections add): the middle of a range, another option.
export function otherValue(name) {
  const spec = parameters[name];
  switch (spec.type) {
    case 'boolean': return !spec.default;
    case 'choice': return spec.options.find((option) => option !== spec.default);
    default: {
      const middle = clampValue(name, spec.min + (spec.max - spec.min) * 0.37);
      return middle === spec.default ? clampValue(name, spec.max) : middle;
    }
  }
}

// The state the page starts in for a hash (main.js: the hash's parameters
// over the defaults; the browser's language, English in these tests, when
// the hash names none).
export const startingState = (hash) => createStore({ language: 'en', ...parseHash(hash).params }).get();

// Every parameter of the table away from its default, as the store holds
// them: a pair the core refuses together is repaired (the trained model's
// heads, 8, to 7, a divisor of its hidden size, 28).
export const everyParameterChanged = () => repairState(Object.fromEntries(Object.keys(parameters).map((name) => [name, otherValue(name)])));

// URL hashes anybody could write, each with a check of the page's state
// after reading it (null: only that every value stays in its domain).
export const HOSTILE_HASHES = [
  ['n=<script>window.__xss=1</script>', (s) => s.n === 50],
  ['kernel=<img src=x onerror="window.__xss=1">', (s) => s.kernel === 'gaussian'],
  ['kernel=javascript:window.__xss=1', (s) => s.kernel === 'gaussian'],
  ['language=%3Cscript%3Ewindow.__xss%3D1%3C%2Fscript%3E', null],
  // lang is read as language; only its own name is (no LANG, no lang_), the last of them wins.
  ['lang=%3Cscript%3Ewindow.__xss%3D1%3C%2Fscript%3E&n=60', (s) => s.language === 'en' && s.n === 60],
  ['LANG=zh&lang_=zh&lang%00=zh&n=61', (s) => s.language === 'en' && s.n === 61],
  ['language=zh&lang=klingon', (s) => s.language === 'en'],
  ['kernel=%3Csvg%2Fonload%3Dwindow.__xss%3D1%3E&section=%3Csvg%2Fonload%3Dalert(1)%3E', (s) => s.kernel === 'gaussian'],
  ['kernel=&lt;b&gt;boxcar&lt;/b&gt;&estimator=&#97;verage', (s) => s.kernel === 'gaussian' && s.estimator === 'nadaraya-watson'],
  ['noise=2000', (s) => s.noise === 2],
  ['n=1e308&w=1e309&lr=-1e308&epochs=99999999999', (s) => s.n === 1000 && s.w === 50 && s.lr === 0.001 && s.epochs === 1000],
  ['noise=NaN&w=Infinity&lr=-Infinity&n=0x10&seed=1_000', (s) => s.noise === 0.5 && s.w === 1 && s.lr === 0.5 && s.n === 50 && s.seed === 0],
  // Past 4096 characters the hash is not read at all: kernel=boxcar is cut off.
  [`n=${'9'.repeat(5000)}&kernel=boxcar`, (s) => s.n === 50 && s.kernel === 'gaussian'],
  [`kernel=boxcar&seed=${'9'.repeat(3000)}`, (s) => s.seed === 0 && s.kernel === 'boxcar'],
  [`w=2&${'x='.padEnd(9000, 'y')}`, (s) => s.w === 2],
  [`${'a=1&'.repeat(3000)}n=7`, (s) => s.n === 50],
  ['__proto__=1&constructor=2&toString=3&hasOwnProperty=4&valueOf=x&n=60', (s) => s.n === 60],
  // View keys and values named after members of Object.prototype: no section, no mode, no language (the whole page, in English).
  ['embed=__proto__&n=62', (s) => s.n === 62],
  ['embed=constructor&section=toString&exercises=valueOf&hide=__proto__,constructor,hasOwnProperty&language=__proto__&lang=constructor&n=63',
    (s) => s.n === 63 && s.language === 'en'],
  ['section=__proto__&kernel=constructor&estimator=toString&leaveOneOut=valueOf&language=hasOwnProperty',
    (s) => s.kernel === 'gaussian' && s.estimator === 'nadaraya-watson' && s.leaveOneOut === true && s.language === 'en'],
  ['constructor', (s) => s.n === 50],
  ['n=10&n=20&noise=0.1&noise=oops', (s) => s.n === 20 && s.noise === 0.5],
  ['%6E=300&%6Eoise=%30.2', (s) => s.n === 300 && s.noise === 0.2],
  ['n=%&kernel=%E0%A4%A&noise=%2', (s) => s.n === 50 && s.kernel === 'gaussian'],
  ['kernel=%2562oxcar&n=%2531%2530', (s) => s.kernel === 'gaussian' && s.n === 50],
  ['n=50%00&noise=\u202e0.3&seed=٥', (s) => s.noise === 0.5 && s.seed === 0],
  ['leaveOneOut=yes&estimator=NADARAYA-WATSON', (s) => s.leaveOneOut === true && s.estimator === 'nadaraya-watson'],
  ['embed=nowhere&hide=*', (s) => s.n === 50],
  ['embed=pooling&hide=%22%5D%2C*%7Bdisplay%3Anone%7D%5Bx%3D%22,kernel', null],
  ['&&&==&=x&x=&==', null],
  ['section=training&section=data', null],
  // A course's heading is text: markup in it stays characters (the browser test checks nothing is injected).
  ['embed=pooling&hide=numbers&heading=%3Cimg%20src%3Dx%20onerror%3D%22window.__xss%3D1%22%3E%3Cscript%3Ewindow.__xss%3D1%3C%2Fscript%3E', (s) => s.n === 50],
  [`embed=heatmap&heading=${'%E2%80%AE'.repeat(40)}${'%00'.repeat(200)}&heading=%`, (s) => s.n === 50],
  // The self-attention section's word vectors and switches: out of range, malformed, not a word.
  ['saSheFood=99&saAppleFood=-1e309&saEatAction=NaN&saGreenColour=0x2&saProjections=yes&saSeed=-1&saNobodyFood=1',
    (s) => s.saSheFood === 3 && s.saAppleFood === -3 && s.saEatAction === parameters.saEatAction.default &&
      s.saGreenColour === parameters.saGreenColour.default && s.saProjections === false && s.saSeed === 0 && !('saNobodyFood' in s)],
  // The attention-training section's parameters: out of range, malformed, a
  // head count that does not divide the hidden size (the nearest that does).
  ['atTask=<script>window.__xss=1</script>&atOptimizer=ADAM&atLag=99&atHidden=-4&atHeads=7&atLr=1e309&atSteps=NaN&atCausal=yes&atSeed=-1',
    (s) => s.atTask === 'reverse' && s.atOptimizer === 'adam' && s.atLag === 7 && s.atHidden === 4 && s.atHeads === 4 &&
      s.atLr === 1 && s.atSteps === 2000 && s.atCausal === false && s.atSeed === 0],
];
