// The console in a real browser: headless Chromium (Debian's `chromium`, never downloaded)
// driven by playwright-core, against `accord serve CONTRACT --console`.
//
//   node console.mjs check --url URL --contract FILE [--token T] [--shots DIR]
//   node console.mjs big   --url URL --contract FILE
//
// `check` walks the console as a person would and fails (exit 1, the reason on stderr) when
// the page does not do what docs/console.md says; `big` measures a large contract. Both print
// one JSON object of figures on stdout. crates/cli/tests/it/console_browser.rs runs them.
import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const [mode, ...rest] = process.argv.slice(2);
const args = {};
for (let i = 0; i < rest.length; i += 2) args[rest[i].replace(/^--/, '')] = rest[i + 1];
const base = args.url.replace(/\/$/, '');
const contract = JSON.parse(readFileSync(args.contract, 'utf8'));
const executablePath = process.env.ACCORD_CHROMIUM || '/usr/bin/chromium';
const figures = {};
// Generous: on a 2-core machine shared with builds, Chromium takes seconds to start and lay out;
// 15 s timed out there once under load 8 although nothing was wrong.
const TIMEOUT = 45000;
const pageErrors = [];

function fail(message) {
  throw new Error(message);
}

function resolve(node, ns) {
  let hops = 0;
  while (node && node.kind === 'ref' && hops++ < 64) {
    ns = node.namespace || ns;
    node = contract.namespaces[ns].types[node.name];
  }
  return node;
}

const methods = () => Object.entries(contract.namespaces || {}).flatMap(([ns, n]) =>
  Object.entries(n.methods || {}).map(([name, m]) => ({ q: `${ns}.${name}`, ns, name, m })));
const events = () => Object.entries(contract.namespaces || {}).flatMap(([ns, n]) =>
  Object.keys(n.events || {}).map((name) => `${ns}.${name}`));

// Loads the page with the bytes it transferred (CDP's encodedDataLength: headers and bodies as
// they came over the socket) and the time to the page's ready mark.
async function firstLoad(page, state) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; requests += 1; });
  await page.goto(`${base}/console`);
  await page.waitForSelector(`body[data-ready="${state}"]`, { timeout: TIMEOUT });
  await page.waitForLoadState('networkidle');
  const tti = await page.evaluate((s) => {
    const mark = performance.getEntriesByName(`accord-console-ready-${s}`)[0];
    return mark ? mark.startTime : null;
  }, state);
  await cdp.detach();
  return { bytes, requests, tti };
}

async function useCredential(page, token) {
  await page.fill('#credential', token);
  const started = await page.evaluate(() => performance.now());
  await page.click('#credential-form button[type=submit]');
  await page.waitForSelector('body[data-ready="full"]', { timeout: TIMEOUT });
  const ready = await page.evaluate(() => {
    const marks = performance.getEntriesByName('accord-console-ready-full');
    return marks[marks.length - 1].startTime;
  });
  return ready - started;
}

async function axe(page, where) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) {
    fail(`axe-core, ${where}: ${bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`).join(' | ')}`);
  }
  return result.violations.length;
}

// Tabs through the page and checks that every visible control got the focus, and that every
// input has a label.
async function keyboard(page, where) {
  await page.evaluate(() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); });
  await page.evaluate(() => {
    window.__focused = new Set();
    document.addEventListener('focusin', (e) => window.__focused.add(e.target), true);
  });
  const controls = await page.evaluate(() => document.querySelectorAll('a[href], button, input, select, textarea').length);
  for (let i = 0; i < controls + 10; i++) await page.keyboard.press('Tab');
  const missed = await page.evaluate(() => {
    const visible = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length) && !e.closest('[hidden], dialog:not([open])');
    const out = [];
    for (const e of document.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])')) {
      if (!visible(e)) continue;
      if (!window.__focused.has(e)) out.push(`not reached by Tab: ${e.outerHTML.slice(0, 80)}`);
      if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.tagName) && !(e.labels && e.labels.length) && !e.getAttribute('aria-label')) out.push(`no label: ${e.outerHTML.slice(0, 80)}`);
    }
    return out;
  });
  if (missed.length) fail(`keyboard, ${where}: ${missed.slice(0, 5).join(' | ')}`);
  return controls;
}

async function shot(page, name, focus) {
  if (!args.shots) return;
  mkdirSync(args.shots, { recursive: true });
  if (focus) await page.locator(focus).first().evaluate((e) => e.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: join(args.shots, `${name}.png`), fullPage: false });
}

async function check(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.stack || err.message));
  const token = args.token;

  // Without a credential: the reduced answer, said to be reduced, with how to supply one.
  const load = await firstLoad(page, token ? 'reduced' : 'full');
  figures.firstLoad = load;
  if (token) {
    const notice = await page.textContent('#reduced-notice');
    if (!/reduced answer/.test(notice) || !/credential/.test(notice)) fail(`the reduced view does not say it is reduced: ${notice}`);
    for (const ns of Object.keys(contract.namespaces)) {
      if (!(await page.textContent('main')).includes(ns)) fail(`the reduced view lacks namespace ${ns}`);
    }
    const storage = await page.evaluate(() => localStorage.length + sessionStorage.length + document.cookie.length);
    await shot(page, 'reduced');
    figures.axeReduced = await axe(page, 'the reduced view');
    figures.credentialToFull = await useCredential(page, token);
    const leaked = await page.evaluate((t) => localStorage.length + sessionStorage.length + document.cookie.length + (location.href.includes(t) ? 1 : 0), token);
    if (storage || leaked) fail('the credential reached storage, a cookie or the address');
  }

  // Every namespace and method listed.
  for (const [ns, n] of Object.entries(contract.namespaces)) {
    if (!(await page.$(`#tree a[href="#/ns/${ns}"]`))) fail(`namespace ${ns} is not listed`);
    for (const name of Object.keys(n.methods || {})) {
      if (!(await page.$(`#tree a[data-q="method/${ns}.${name}"]`))) fail(`method ${ns}.${name} is not listed`);
    }
  }
  figures.methodsListed = methods().length;
  await shot(page, 'overview');

  // A read, called from the generated form: a validated result.
  const reads = methods().filter((x) => x.m.semantics === 'read');
  const read = reads.find((x) => (x.m.params || []).length && x.m.examples) || reads.find((x) => (x.m.params || []).length) || reads[0];
  await page.goto(`${base}/console#/method/${read.q}`);
  if (token) await useCredential(page, token);
  await page.waitForSelector('#params-verdict.good', { timeout: TIMEOUT });
  await page.click('#call');
  await page.waitForSelector('#answer-verdict', { timeout: TIMEOUT });
  const verdict = await page.textContent('#answer-verdict');
  if (!/^Keeps the contract/.test(verdict)) fail(`${read.q}: the answer was not a validated result: ${verdict}`);
  if (!(await page.textContent('#transcript')).includes('>> {')) fail('no transcript line');
  figures.readCall = read.q;
  await shot(page, 'read-call', '#answer-verdict');
  figures.axeMethod = await axe(page, `the method view of ${read.q}`);
  figures.controlsTabbed = await keyboard(page, `the method view of ${read.q}`);

  // A form with a union (its arm picker), filled from an example.
  const withUnion = methods().find((x) => (x.m.params || []).some((p) => (resolve(p.type, x.ns) || {}).kind === 'union'));
  if (withUnion) {
    await page.goto(`${base}/console#/method/${withUnion.q}`);
    await page.waitForSelector('#params-verdict.good', { timeout: TIMEOUT });
    if (!(await page.$('#call-form select[id^="arm-"]'))) fail(`${withUnion.q}: no arm picker`);
    figures.unionForm = withUnion.q;
    await shot(page, 'call-form', '#call-form');
  }

  // An invalid field flagged before anything is sent.
  let bounded = null;
  for (const x of methods()) {
    for (const p of x.m.params || []) {
      const t = resolve(p.type, x.ns);
      if (!p.optional && t && (t.kind === 'integer' || t.kind === 'number') && t.max !== undefined) { bounded = { x, p, t }; break; }
    }
    if (bounded) break;
  }
  if (bounded) {
    await page.goto(`${base}/console#/method/${bounded.x.q}`);
    await page.waitForSelector('#call-form', { timeout: TIMEOUT });
    const calls = [];
    page.on('request', (r) => { if (r.url().endsWith('/console/api/call')) calls.push(r.url()); });
    const input = page.getByLabel(bounded.p.name, { exact: false }).first();
    await input.fill(String(bounded.t.max * 10 + 1));
    await page.waitForSelector('#call-form [aria-invalid="true"]', { timeout: TIMEOUT });
    const said = await page.textContent('#params-verdict');
    if (!/break the contract/.test(said)) fail(`an invalid ${bounded.p.name} was not flagged: ${said}`);
    if (calls.length) fail('a call was sent while validating');
    figures.invalidFlagged = `${bounded.x.q} ${bounded.p.name}`;
    await shot(page, 'invalid-field', '#params-verdict');
  }

  // A destructive method: the name typed back, and the console refuses the call without the
  // confirmation token of that exact call.
  const destructive = methods().find((x) => x.m.semantics === 'destructive');
  if (destructive) {
    await page.goto(`${base}/console#/method/${destructive.q}`);
    await page.waitForSelector('#call', { timeout: TIMEOUT });
    await page.click('#call');
    await page.waitForSelector('dialog#confirm[open]', { timeout: TIMEOUT });
    if (await page.isHidden('#confirm-typed')) fail('the destructive confirmation does not ask for the name');
    if (!(await page.isDisabled('#confirm-yes'))) fail('the destructive call is one click away');
    await page.fill('#confirm-typed', destructive.name);
    if (!(await page.isDisabled('#confirm-yes'))) fail('a partial name confirmed the destructive call');
    await shot(page, 'destructive-confirmation');
    figures.axeDialog = await axe(page, 'the destructive confirmation');
    await page.click('#confirm-no');
    const refused = await page.evaluate(async ({ q, t }) => {
      const params = {};
      const headers = { 'Content-Type': 'application/json' };
      if (t) headers.Authorization = `Bearer ${t}`;
      const r = await fetch('/console/api/call', { method: 'POST', headers, body: JSON.stringify({ method: q, params }) });
      return { status: r.status, body: await r.json() };
    }, { q: destructive.q, t: token });
    if (refused.status !== 428) fail(`a destructive call without confirmation got HTTP ${refused.status}, not 428`);
    // And with the name typed back in full, the call is made.
    await page.click('#call');
    await page.fill('#confirm-typed', destructive.q);
    await page.click('#confirm-yes');
    await page.waitForSelector('#answer-verdict', { timeout: TIMEOUT });
    figures.destructive = destructive.q;
  }

  // Undeclared semantics: asked in the policy's words; write and idempotent: asked once,
  // naming the method and its semantics, then made.
  const undeclared = methods().find((x) => !['read', 'idempotent', 'write', 'destructive'].includes(x.m.semantics));
  if (undeclared) {
    await page.goto(`${base}/console#/method/${undeclared.q}`);
    await page.waitForSelector('#call', { timeout: TIMEOUT });
    await page.click('#call');
    await page.waitForSelector('dialog#confirm[open]', { timeout: TIMEOUT });
    const prompt = await page.textContent('#confirm-prompt');
    if (!prompt.includes('this method declares no semantics: ask before pressing')) fail(`${undeclared.q}: ${prompt}`);
    await page.click('#confirm-no');
    figures.undeclared = undeclared.q;
  }
  const changing = methods().find((x) => x.m.semantics === 'write') || methods().find((x) => x.m.semantics === 'idempotent');
  if (changing) {
    await page.goto(`${base}/console#/method/${changing.q}`);
    await page.waitForSelector('#call', { timeout: TIMEOUT });
    await page.click('#call');
    await page.waitForSelector('dialog#confirm[open]', { timeout: TIMEOUT });
    const prompt = await page.textContent('#confirm-prompt');
    if (!prompt.includes(changing.q) || !prompt.includes(changing.m.semantics)) fail(`${changing.q}: ${prompt}`);
    if (await page.isVisible('#confirm-typed')) fail(`${changing.q} asks for its name typed back`);
    await page.click('#confirm-yes');
    await page.waitForSelector('#answer-verdict', { timeout: TIMEOUT });
    figures.confirmedOnce = changing.q;
  }

  // An event, live.
  const event = events()[0];
  if (event) {
    await page.goto(`${base}/console#/event/${event}`);
    await page.waitForSelector('#subscribe', { timeout: TIMEOUT });
    await page.click('#subscribe');
    await page.waitForSelector('#event-list li', { timeout: TIMEOUT });
    const first = await page.textContent('#event-list li');
    if (!/keeps the contract/.test(first)) fail(`the event's payload was not validated: ${first}`);
    await page.click('#pause');
    await shot(page, 'events', '#event-count');
    figures.axeEvents = await axe(page, `the event view of ${event}`);
    await page.click('#clear');
    if (await page.$('#event-list li')) fail('clear left payloads');
    figures.event = event;
  }

  // Links and causes (format.md §5.11, §5.12): a method shows each link with its params, the
  // target a link to its page; an event names the methods that cause it.
  const linked = methods().find((x) => Object.keys(x.m.links || {}).length);
  if (linked) {
    await page.goto(`${base}/console#/method/${linked.q}`);
    await page.waitForSelector('#links tbody tr', { timeout: TIMEOUT });
    const rows = await page.$$eval('#links tbody tr', (r) => r.length);
    const links = Object.values(linked.m.links);
    if (rows !== links.length) fail(`${linked.q}: ${rows} of ${links.length} links shown`);
    const target = `${links[0].namespace || linked.ns}.${links[0].method}`;
    const params = await page.textContent('#links tbody tr');
    for (const [p, v] of Object.entries(links[0].params || {})) {
      if (!params.includes(`${p} = ${typeof v === 'string' ? v : JSON.stringify(v)}`)) fail(`${linked.q}: link param ${p} not shown: ${params}`);
    }
    figures.axeLinks = await axe(page, `the links of ${linked.q}`);
    await page.click(`#links a[href="#/method/${target}"]`);
    await page.waitForSelector(`#tree a[data-q="method/${target}"][aria-current]`, { timeout: TIMEOUT });
    figures.links = `${linked.q} → ${target}`;
  }
  const causing = methods().find((x) => (x.m.causes || []).length);
  if (causing) {
    await page.goto(`${base}/console#/method/${causing.q}`);
    await page.waitForSelector('#causes li', { timeout: TIMEOUT });
    const items = await page.$$eval('#causes li', (l) => l.length);
    if (items !== causing.m.causes.length) fail(`${causing.q}: ${items} of ${causing.m.causes.length} causes shown`);
    const cause = causing.m.causes[0];
    const event = `${cause.namespace || causing.ns}.${cause.event}`;
    await page.click(`#causes a[href="#/event/${event}"]`);
    await page.waitForSelector('#caused-by', { timeout: TIMEOUT });
    if (!(await page.textContent('#caused-by')).includes(causing.q)) fail(`${event} does not name ${causing.q} among the methods that cause it`);
    figures.causes = `${causing.q} → ${event}`;
  }

  // Search narrows the list.
  const some = methods()[methods().length - 1];
  await page.fill('#search', some.name);
  const shown = await page.$$eval('#tree li:not(.item-hidden)', (l) => l.length);
  if (shown < 1 || shown >= methods().length) fail(`search for ${some.name} shows ${shown} items`);
  await context.close();
}

async function big(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.stack || err.message));
  figures.firstLoad = await firstLoad(page, 'full');
  const all = methods();
  figures.methods = all.length;
  const listed = await page.$$eval('#tree a[data-q^="method/"]', (l) => l.length);
  if (listed !== all.length) fail(`${listed} of ${all.length} methods listed`);
  const last = all[all.length - 1];
  let t = await page.evaluate(() => performance.now());
  await page.fill('#search', last.name);
  await page.waitForFunction((n) => document.querySelectorAll('#tree li:not(.item-hidden)').length === n, 1);
  figures.searchMs = (await page.evaluate(() => performance.now())) - t;
  t = await page.evaluate(() => performance.now());
  await page.click(`#tree a[data-q="method/${last.q}"]`);
  await page.waitForSelector('#params-verdict.good, #params-verdict.bad', { timeout: TIMEOUT });
  figures.openMethodMs = (await page.evaluate(() => performance.now())) - t;
  await context.close();
}

const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
try {
  if (mode === 'check') await check(browser);
  else if (mode === 'big') await big(browser);
  else fail(`unknown mode ${mode}`);
  if (pageErrors.length) fail(`script errors on the page: ${pageErrors.join(' | ')}`);
  console.log(JSON.stringify(figures));
} catch (err) {
  console.error(err.message);
  process.exitCode = 1;
} finally {
  await browser.close();
}
