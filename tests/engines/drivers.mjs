// The three browser engines behind one small interface, each driven the way
// that works with Debian's build of it (../shared notes: toolchain.md):
// Chromium by playwright-core, Firefox ESR by puppeteer-core over WebDriver
// BiDi, WebKitGTK's MiniBrowser (Safari's engine) by selenium-webdriver
// through WebKitWebDriver, under Xvfb since MiniBrowser has no headless mode.
//
//   const engine = await launchEngine('webkit');
//   const tab = await engine.open(url, { width, height });
//   await tab.evaluate(async (arg) => ..., arg);   // JSON in, JSON out
//   await tab.evaluate('(async () => ...)()');     // or an expression's source
//   await engine.close();
//
// One tab at a time per engine: open() closes the previous one.
//
// A browser whose own process crashed (seen once in CI: WebKit's session
// deleted "because of page crash or hang" while the page loaded) is
// launched anew by the next open(), and retriedAfterCrash() runs a test
// once more after such a crash, printing it with the browser's last words.
// A failed assertion, or a second crash, still fails the test.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export const ENGINES = Object.freeze(['chromium', 'firefox', 'webkit']);

const CALL_TIMEOUT_MS = 180000;

// A free TCP port of the loopback interface.
async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Waits for a port to accept connections (a server a child process starts).
async function portOpen(port, ms = 20000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`nothing listens on port ${port} after ${ms} ms`);
}

async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-sync'],
  });
  let current = null;
  return {
    name: 'chromium',
    async open(url, { width = 1280, height = 900 } = {}) {
      await current?.close();
      current = await browser.newContext({ viewport: { width, height } });
      const page = await current.newPage();
      const consoleProblems = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') consoleProblems.push(message.text());
      });
      await page.goto(url);
      return {
        consoleProblems, evaluate: (fn, arg) => page.evaluate(fn, arg), page,
        screenshot: (file) => page.screenshot({ path: file }),
      };
    },
    alive: async () => browser.isConnected(),
    lastWords: () => '',
    close: () => browser.close(),
  };
}

async function launchFirefox() {
  const puppeteer = (await import('puppeteer-core')).default;
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX ?? '/usr/bin/firefox-esr',
    headless: true,
    protocolTimeout: CALL_TIMEOUT_MS,
  });
  let current = null;
  return {
    name: 'firefox',
    async open(url, { width = 1280, height = 900 } = {}) {
      await current?.close();
      current = await browser.newPage();
      const page = current;
      await page.setViewport({ width, height });
      const consoleProblems = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warn') consoleProblems.push(message.text());
      });
      page.on('pageerror', (error) => consoleProblems.push(`page error: ${error.message}`));
      await page.goto(url);
      return {
        consoleProblems, evaluate: (fn, arg) => page.evaluate(fn, arg), page,
        screenshot: (file) => page.screenshot({ path: file }),
      };
    },
    alive: async () => browser.connected,
    lastWords: () => '',
    close: () => browser.close(),
  };
}

// Starts Xvfb and resolves to it and its display, ":N". Xvfb picks a free
// display itself and writes its number once it accepts clients
// (-displayfd): no guessed number, no fixed wait on a busy machine.
async function startXvfb(ms = 20000) {
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1400x4000x24', '-nolisten', 'tcp'],
    { stdio: ['ignore', 'pipe', 'ignore'] });
  let written = '';
  try {
    const number = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Xvfb named no display within ${ms} ms`)), ms);
      xvfb.stdout.on('data', (chunk) => {
        written += chunk;
        if (!written.includes('\n')) return;
        clearTimeout(timer);
        resolve(written.trim());
      });
      xvfb.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Xvfb exited (${code}) before it named its display`));
      });
    });
    return { xvfb, display: `:${number}` };
  } catch (error) {
    xvfb.kill();
    throw error;
  }
}

// Xvfb and WebKitWebDriver are child processes of the test; close() ends them.
async function launchWebKit() {
  const { Builder } = await import('selenium-webdriver');
  const { xvfb, display } = await startXvfb();
  const children = [xvfb];
  const port = await freePort();
  // The driver's and MiniBrowser's standard error (MiniBrowser inherits it), its last lines kept for a crash's report.
  const webDriver = spawn(process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver', [`--port=${port}`],
    { env: { ...process.env, DISPLAY: display }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(webDriver);
  let errorLines = [];
  webDriver.stderr.setEncoding('utf8').on('data', (text) => {
    errorLines = [...errorLines, ...text.split('\n').filter(Boolean)].slice(-30);
  });
  await portOpen(port);
  const driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities({
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': {
      binary: process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
      args: ['--automation'], // without it the session never starts
    },
  }).build();
  await driver.manage().setTimeouts({ script: CALL_TIMEOUT_MS, pageLoad: 60000 });
  return {
    name: 'webkit',
    async open(url, { width = 1280, height = 900 } = {}) {
      await driver.manage().window().setRect({ width, height });
      await driver.get(url);
      return {
        consoleProblems: [], // this driver cannot read the console: the probe's record stands in
        // The function's source runs in the page; its promise settles the call.
        async evaluate(fn, arg) {
          const outcome = await driver.executeAsyncScript(`const done = arguments[arguments.length - 1];
            Promise.resolve().then(() => ${typeof fn === 'function' ? `(${fn})(arguments[0])` : fn}).then(
              (value) => done({ value: value === undefined ? null : value }),
              (error) => done({ error: String(error && error.stack || error) }));`, arg ?? null);
          if (outcome.error) throw new Error(`in WebKit: ${outcome.error}`);
          return outcome.value;
        },
        // The window as MiniBrowser draws it (PNG).
        async screenshot(file) {
          await writeFile(file, Buffer.from(await driver.takeScreenshot(), 'base64'));
        },
        driver,
      };
    },
    alive: () => driver.getCurrentUrl().then(() => true, () => false),
    lastWords: () => errorLines.join('\n'),
    async close() {
      await driver.quit().catch(() => {});
      for (const child of children.reverse()) child.kill();
    },
  };
}

export async function launchEngine(name) {
  const launch = { chromium: launchChromium, firefox: launchFirefox, webkit: launchWebKit }[name];
  let browser = await launch();
  return {
    name,
    async open(url, size) {
      if (!(await browser.alive())) {
        await browser.close().catch(() => {});
        browser = await launch();
      }
      return browser.open(url, size);
    },
    alive: () => browser.alive(),
    lastWords: () => browser.lastWords(),
    close: () => browser.close(),
  };
}

// Runs a test's body, and once more if the browser's process crashed under
// it (the browser no longer answers): the crash is printed with the test.
export async function retriedAfterCrash(t, engine, body) {
  try {
    await body();
  } catch (error) {
    if (await engine.alive()) throw error;
    t.diagnostic(`${engine.name} crashed (${error.name}: ${error.message}); its last words:\n${engine.lastWords() || '(nothing on standard error)'}`);
    await body();
  }
}

// Resolves to the first truthy value of `predicate(arg)` in the tab, asked
// every 100 ms (from here: the page's policy allows no code built in it).
export async function waitInPage(tab, predicate, arg, ms = 60000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await tab.evaluate(predicate, arg);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${predicate}`);
    await sleep(100);
  }
}
