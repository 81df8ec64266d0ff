// accord console: browse a plant's contract and call it, confirming before anything but a read.
// Plain JavaScript, no build step, nothing fetched but the console's own API. Values are never
// judged here: every check is accord-validate's, asked of /console/api/validate and returned
// with each call and event. The credential lives in this closure only: never in storage, a
// cookie or the address.
'use strict';
(() => {
  const UNSET = Symbol('unset');
  const GROUPS = [
    ['read', 'Read'],
    ['idempotent', 'Idempotent'],
    ['write', 'Write'],
    ['destructive', 'Destructive'],
    ['undeclared', 'Undeclared: ask before pressing'],
  ];
  const KNOWN_SEMANTICS = new Set(['read', 'idempotent', 'write', 'destructive']);
  const MAX_FORM_DEPTH = 24;

  let credential = null;
  let described = null; // the console's describe answer
  let doc = null; // the contract, when the answer is the full one
  let current = null; // the view's teardown
  let uidCounter = 0;

  const $ = (id) => document.getElementById(id);
  const uid = (p) => `${p}-${++uidCounter}`;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') node.className = v;
      else if (k === 'text') node.textContent = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  async function api(path, body) {
    const headers = {};
    if (credential) headers.Authorization = `Bearer ${credential}`;
    const init = { method: body === undefined ? 'GET' : 'POST', headers };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    let json = null;
    try { json = await response.json(); } catch (_) { json = null; }
    return { status: response.status, json };
  }

  // ---- the contract ----------------------------------------------------------------------

  const namespaces = () => (doc && doc.namespaces) || {};
  const semanticsOf = (m) => (KNOWN_SEMANTICS.has(m.semantics) ? m.semantics : 'undeclared');
  const isDeprecated = (x) => x && x.deprecated !== undefined && x.deprecated !== false;
  const deprecationNote = (x) => (typeof x.deprecated === 'string' && x.deprecated ? `: ${x.deprecated}` : '');
  const pointer = (base, key) => `${base}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  const inputOptional = (f) => (f.inputOptional !== undefined ? f.inputOptional : !!f.optional);

  function lookup(kind, qualified) {
    const dot = qualified.indexOf('.');
    if (dot < 0) return null;
    const ns = namespaces()[qualified.slice(0, dot)];
    const table = ns && ns[kind];
    const name = qualified.slice(dot + 1);
    return table && Object.prototype.hasOwnProperty.call(table, name) ? table[name] : null;
  }

  function resolve(node, ns) {
    let hops = 0;
    while (node && node.kind === 'ref' && hops++ < 64) {
      const target = node.namespace || ns;
      const found = lookup('types', `${target}.${node.name}`);
      if (!found) return { node: { kind: 'any' }, ns: target, missing: `${target}.${node.name}` };
      ns = target;
      node = found;
    }
    return { node, ns };
  }

  // Descriptions: paragraphs kept, `code` spans shown as code; never HTML.
  function prose(text, cls) {
    const p = el('p', { class: cls || 'desc' });
    String(text).split(/(`[^`]+`)/).forEach((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1) p.append(el('code', {}, part.slice(1, -1)));
      else p.append(part);
    });
    return p;
  }

  function unitSpan(node) { return node.unit ? el('span', { class: 'unit' }, ` ${node.unit}`) : null; }

  function numberBounds(n) {
    const parts = [];
    if (n.min !== undefined) parts.push(`≥ ${n.min}`);
    if (n.exclusiveMin !== undefined) parts.push(`> ${n.exclusiveMin}`);
    if (n.max !== undefined) parts.push(`≤ ${n.max}`);
    if (n.exclusiveMax !== undefined) parts.push(`< ${n.exclusiveMax}`);
    if (n.multipleOf !== undefined) parts.push(`multiple of ${n.multipleOf}`);
    return parts.join(', ');
  }

  function stringRules(n) {
    const parts = [];
    if (n.minLength !== undefined || n.maxLength !== undefined) parts.push(`length ${n.minLength ?? 0}…${n.maxLength ?? '∞'}`);
    if (n.pattern !== undefined) parts.push(`pattern ${n.pattern}`);
    if (n.format !== undefined) parts.push(`format ${n.format}`);
    return parts.join(', ');
  }

  // A type as text with links to named types; objects as a table of their fields.
  function typeView(node, ns, depth = 0) {
    if (!node) return el('span', { class: 'muted' }, 'nothing');
    const wrap = el('span');
    const dep = isDeprecated(node) ? el('span', { class: 'badge dep' }, `deprecated${deprecationNote(node)}`) : null;
    switch (node.kind) {
      case 'ref': {
        const target = node.namespace || ns;
        const label = target === ns ? node.name : `${target}.${node.name}`;
        wrap.append(el('a', { href: `#/type/${target}.${node.name}` }, label));
        break;
      }
      case 'integer': case 'number': {
        wrap.append(el('code', {}, node.kind));
        const b = numberBounds(node);
        if (b) wrap.append(` (${b})`);
        const u = unitSpan(node);
        if (u) wrap.append(u);
        break;
      }
      case 'string': {
        wrap.append(el('code', {}, 'string'));
        const r = stringRules(node);
        if (r) wrap.append(` (${r})`);
        break;
      }
      case 'literal': wrap.append(el('code', {}, JSON.stringify(node.value))); break;
      case 'enum':
        wrap.append(node.open ? 'open enum ' : 'enum ', el('code', {}, node.values.map((v) => JSON.stringify(v)).join(' | ')));
        break;
      case 'array': {
        wrap.append('array of ', typeView(node.items, ns, depth + 1));
        const bits = [];
        if (node.minItems !== undefined || node.maxItems !== undefined) bits.push(`${node.minItems ?? 0}…${node.maxItems ?? '∞'} items`);
        if (node.uniqueItems) bits.push('unique');
        if (bits.length) wrap.append(` (${bits.join(', ')})`);
        break;
      }
      case 'tuple':
        wrap.append('[');
        (node.elements || []).forEach((e, i) => { if (i) wrap.append(', '); wrap.append(typeView(e, ns, depth + 1)); });
        wrap.append(']');
        break;
      case 'map':
        wrap.append('map of ', node.keys ? typeView(node.keys, ns, depth + 1) : el('code', {}, 'string'), ' to ', typeView(node.values, ns, depth + 1));
        break;
      case 'union':
        wrap.append(node.discriminator ? `one of (by ${node.discriminator}): ` : 'one of: ');
        (node.variants || []).forEach((v, i) => { if (i) wrap.append(' | '); wrap.append(typeView(v, ns, depth + 1)); });
        break;
      case 'object': {
        const fields = Object.entries(node.fields || {});
        wrap.append(el('code', {}, node.closed ? 'closed object' : 'object'));
        if (fields.length && depth < 6) wrap.append(fieldTable(fields.map(([name, f]) => ({ name, f })), ns, depth + 1));
        break;
      }
      default: wrap.append(el('code', {}, node.kind));
    }
    if (dep) wrap.append(dep);
    if (node.description && depth > 0) wrap.append(el('span', { class: 'hint' }, ` ${node.description}`));
    return wrap;
  }

  function fieldTable(rows, ns, depth) {
    return el('table', {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'name'), el('th', { scope: 'col' }, 'type'), el('th', { scope: 'col' }, 'description'))),
      el('tbody', {}, rows.map(({ name, f }) => el('tr', {},
        el('td', { class: isDeprecated(f) ? 'deprecated' : '' }, el('code', {}, name), inputOptional(f) ? el('span', { class: 'hint' }, ' optional') : null,
          isDeprecated(f) ? el('span', { class: 'badge dep' }, `deprecated${deprecationNote(f)}`) : null),
        el('td', {}, typeView(f.type, ns, depth)),
        el('td', {}, f.description ? prose(f.description) : '')))));
  }

  // ---- navigation ------------------------------------------------------------------------

  function semBadge(sem) {
    return el('span', { class: `badge s-${sem}` }, sem === 'undeclared' ? 'undeclared: ask before pressing' : sem);
  }

  function buildNav() {
    const tree = $('tree');
    tree.textContent = '';
    const frag = document.createDocumentFragment();
    if (!doc) {
      const reduced = (described && described.answer && described.answer.namespaces) || {};
      for (const [name, entry] of Object.entries(reduced)) {
        frag.append(el('h2', {}, `${name} `, el('span', { class: 'muted' }, entry.version ?? 'not served')));
      }
      tree.append(frag);
      return;
    }
    for (const [nsName, ns] of Object.entries(namespaces())) {
      const section = el('section', { class: 'nav-ns', 'data-search': `${nsName} ${ns.description || ''}`.toLowerCase() });
      section.append(el('h2', {}, el('a', { href: `#/ns/${nsName}` }, nsName), ' ', el('span', { class: 'muted' }, ns.version),
        isDeprecated(ns) ? el('span', { class: 'badge dep' }, 'deprecated') : null));
      const methods = Object.entries(ns.methods || {});
      for (const [sem, title] of GROUPS) {
        const items = methods.filter(([, m]) => semanticsOf(m) === sem);
        if (!items.length) continue;
        section.append(navGroup(title, items.map(([name, m]) => navItem('method', nsName, name, m, sem))));
      }
      const events = Object.entries(ns.events || {});
      if (events.length) section.append(navGroup('Events', events.map(([name, e]) => navItem('event', nsName, name, e))));
      const types = Object.entries(ns.types || {});
      if (types.length) section.append(navGroup('Types', types.map(([name, t]) => navItem('type', nsName, name, t))));
      frag.append(section);
    }
    tree.append(frag);
    applySearch();
  }

  function navGroup(title, items) {
    return el('div', { class: 'nav-group' }, el('h3', {}, title), el('ul', {}, items));
  }

  function navItem(kind, ns, name, record, sem) {
    const q = `${ns}.${name}`;
    const text = `${q} ${record.description || ''}`.toLowerCase();
    return el('li', { 'data-search': text },
      el('a', { href: `#/${kind}/${q}`, class: isDeprecated(record) ? 'deprecated' : '', 'data-q': `${kind}/${q}` }, name),
      isDeprecated(record) ? el('span', { class: 'badge dep' }, 'deprecated') : null,
      sem === 'undeclared' ? el('span', { class: 'badge s-undeclared', title: 'this method declares no semantics: ask before pressing' }, 'ask') : null);
  }

  function applySearch() {
    const q = $('search').value.trim().toLowerCase();
    for (const li of $('tree').querySelectorAll('li')) li.classList.toggle('item-hidden', !!q && !li.dataset.search.includes(q));
    for (const g of $('tree').querySelectorAll('.nav-group')) g.classList.toggle('item-hidden', !g.querySelector('li:not(.item-hidden)'));
    for (const s of $('tree').querySelectorAll('.nav-ns')) {
      s.classList.toggle('item-hidden', !!q && !s.querySelector('li:not(.item-hidden)') && !s.dataset.search.includes(q));
    }
  }

  function markCurrent(route) {
    for (const a of $('tree').querySelectorAll('a[aria-current]')) a.removeAttribute('aria-current');
    const a = $('tree').querySelector(`a[data-q="${CSS.escape(route)}"]`);
    if (a) a.setAttribute('aria-current', 'page');
  }

  // ---- views -----------------------------------------------------------------------------

  // Appends what is there of `children` (views build them with `cond ? node : null`).
  function put(node, ...children) {
    node.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  }

  function show(...children) {
    if (current) { current(); current = null; }
    const main = $('main');
    main.textContent = '';
    put(main, ...children);
  }

  function route() {
    const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ''));
    if (!doc) return showOverview();
    const slash = hash.indexOf('/');
    const kind = slash < 0 ? hash : hash.slice(0, slash);
    const q = slash < 0 ? '' : hash.slice(slash + 1);
    markCurrent(`${kind}/${q}`);
    if (kind === 'method' && lookup('methods', q)) return showMethod(q);
    if (kind === 'event' && lookup('events', q)) return showEvent(q);
    if (kind === 'type' && lookup('types', q)) return showType(q);
    if (kind === 'ns' && namespaces()[q]) return showNamespace(q);
    return showOverview();
  }

  function showOverview() {
    if (!described) return;
    if (described.state === 'reduced') return showReduced();
    if (!doc) {
      return show(el('h2', {}, 'No contract'), el('div', { class: 'notice warn' },
        prose(described.message || (described.error ? JSON.stringify(described.error) : 'The plant gave no contract.'))),
      credentialHelp());
    }
    const body = [el('h2', {}, doc.name || 'Contract')];
    if (doc.description) body.push(prose(doc.description));
    if (described.source === 'contract') {
      body.push(el('p', { class: 'hint' }, 'Shown from the contract accord was given', described.answer ? ' (the plant\'s describe answer is the full one).' : ' (this wire has no describe method).'));
    }
    body.push(el('table', {}, el('thead', {}, el('tr', {}, ...['namespace', 'version', 'methods', 'events', 'description'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, Object.entries(namespaces()).map(([name, ns]) => el('tr', {},
        el('td', {}, el('a', { href: `#/ns/${name}` }, name)), el('td', {}, ns.version),
        el('td', {}, String(Object.keys(ns.methods || {}).length)), el('td', {}, String(Object.keys(ns.events || {}).length)),
        el('td', {}, ns.description ? prose(ns.description) : ''))))));
    show(...body);
  }

  function credentialHelp() {
    return el('p', {}, 'Enter the credential (the plant\'s bearer token) in the box at the top and press “Use credential”. It is kept in this page\'s memory only: never stored, never put in the address; reloading the page forgets it.');
  }

  function showReduced() {
    const a = described.answer || {};
    show(el('h2', {}, 'Reduced describe answer'),
      el('div', { class: 'notice', id: 'reduced-notice' },
        el('p', {}, el('strong', {}, 'This is the reduced answer: '), 'the plant needs a credential before it shows its contract, its methods or its types. Until then only its namespaces and their versions are known.'),
        credentialHelp()),
      el('table', {}, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'namespace'), el('th', { scope: 'col' }, 'version'))),
        el('tbody', {}, Object.entries(a.namespaces || {}).map(([name, e]) => el('tr', {}, el('td', {}, name), el('td', {}, e.version ?? 'not served'))))),
      a.update ? el('p', { class: 'hint' }, `The plant says: ${a.update}`) : null);
  }

  function showNamespace(name) {
    const ns = namespaces()[name];
    const rows = Object.entries(ns.methods || {}).map(([m, rec]) => el('tr', {},
      el('td', {}, el('a', { href: `#/method/${name}.${m}`, class: isDeprecated(rec) ? 'deprecated' : '' }, m)),
      el('td', {}, semBadge(semanticsOf(rec))), el('td', {}, rec.description ? prose(rec.description) : '')));
    show(el('h2', {}, name, ' ', el('span', { class: 'muted' }, ns.version), isDeprecated(ns) ? el('span', { class: 'badge dep' }, `deprecated${deprecationNote(ns)}`) : null),
      ns.description ? prose(ns.description) : null,
      ns.component ? el('p', { class: 'hint' }, `Served by ${ns.component.name}${ns.component.description ? `: ${ns.component.description}` : ''}`) : null,
      el('h3', {}, 'Methods'),
      el('table', {}, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'method'), el('th', { scope: 'col' }, 'semantics'), el('th', { scope: 'col' }, 'description'))), el('tbody', {}, rows)));
  }

  function showType(q) {
    const [ns, name] = [q.slice(0, q.indexOf('.')), q.slice(q.indexOf('.') + 1)];
    const node = lookup('types', q);
    const usedBy = [];
    const needle = JSON.stringify({ kind: 'ref', name });
    for (const [mName, m] of Object.entries(namespaces()[ns].methods || {})) {
      if (JSON.stringify(m).includes(needle.slice(0, -1))) usedBy.push(el('li', {}, el('a', { href: `#/method/${ns}.${mName}` }, mName)));
    }
    show(el('h2', {}, `${name} `, el('span', { class: 'muted' }, `type in ${ns}`), isDeprecated(node) ? el('span', { class: 'badge dep' }, `deprecated${deprecationNote(node)}`) : null),
      node.description ? prose(node.description) : null,
      el('div', {}, typeView(node, ns, 1)),
      node.examples ? el('div', {}, el('h3', {}, 'Examples'), node.examples.map((e) => el('pre', { class: 'json', tabindex: '0' }, JSON.stringify(e, null, 2)))) : null,
      usedBy.length ? el('div', {}, el('h3', {}, 'Used by'), el('ul', {}, usedBy)) : null);
  }

  // ---- forms -----------------------------------------------------------------------------

  // Each editor is {el, get(), set(value)}; `paths` maps JSON Pointers to the controls whose
  // errors accord-validate reports there.
  function makeForm() {
    const paths = new Map();
    const register = (path, control, err) => { paths.set(path, { control, err }); };

    function scalarInput(id, path, hint, parse, describedBy) {
      const err = el('div', { class: 'err', id: `${id}-err` });
      const input = el('input', { id, type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': describedBy ? `${describedBy} ${id}-err` : `${id}-err` });
      register(path, input, err);
      return { input, err, get: () => parse(input.value), set: (v) => { input.value = typeof v === 'string' ? v : JSON.stringify(v); } };
    }

    function parseNumber(text) {
      const t = text.trim();
      return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t) ? Number(t) : text;
    }

    function parseJson(text) {
      if (!text.trim()) return UNSET;
      try { return JSON.parse(text); } catch (_) { return text; }
    }

    function armLabel(arm, ns, disc) {
      const r = resolve(arm, ns);
      if (disc && r.node.kind === 'object' && r.node.fields && r.node.fields[disc] && r.node.fields[disc].type.kind === 'literal') {
        return `${disc} = ${JSON.stringify(r.node.fields[disc].type.value)}`;
      }
      if (arm.kind === 'ref') return arm.name;
      if (arm.kind === 'literal') return JSON.stringify(arm.value);
      return arm.kind;
    }

    // The arm a value was most likely made from: by discriminator, else by JSON type. Only
    // to pick which arm's form to fill; whether the value is valid is accord-validate's call.
    function armOf(variants, ns, disc, v) {
      const type = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
      let fallback = -1;
      for (let i = 0; i < variants.length; i++) {
        const n = resolve(variants[i], ns).node;
        if (n.kind === 'literal') { if (JSON.stringify(n.value) === JSON.stringify(v)) return i; continue; }
        if (disc && type === 'object' && n.kind === 'object' && n.fields && n.fields[disc]) {
          const lit = n.fields[disc].type;
          if (lit.kind === 'literal' && lit.value === v[disc]) return i;
          continue;
        }
        const fits = ({ null: ['null'], boolean: ['boolean'], number: Number.isInteger(v) ? ['integer', 'number'] : ['number'],
          string: ['string', 'enum'], array: ['array', 'tuple'], object: ['object', 'map'] })[type] || [];
        if (n.kind === 'enum' && !n.values.includes(v) && !n.open) continue;
        if (fits.includes(n.kind) && fallback < 0) fallback = i;
        if (n.kind === 'any' && fallback < 0) fallback = i;
      }
      return fallback < 0 ? 0 : fallback;
    }

    // A labelled editor of `node` at `path`.
    function build(node, ns, path, label, depth, describedBy) {
      const r = resolve(node, ns);
      const n = r.node;
      ns = r.ns;
      const id = uid('f');
      if (depth > MAX_FORM_DEPTH) node = { kind: 'any' };
      const kind = depth > MAX_FORM_DEPTH ? 'any' : n.kind;
      const hintId = `${id}-hint`;
      const hint = (text, extra) => (text || extra ? el('div', { class: 'hint', id: hintId }, text || '', extra || '') : null);
      switch (kind) {
        case 'integer': case 'number': {
          const s = scalarInput(id, path, null, parseNumber, hintId);
          s.input.setAttribute('inputmode', kind === 'integer' ? 'numeric' : 'decimal');
          const bounds = numberBounds(n);
          return { el: el('div', { class: 'field' }, el('label', { for: id }, label, n.unit ? el('span', { class: 'unit' }, ` (${n.unit})`) : null),
            el('div', { class: 'row' }, s.input, n.unit ? el('span', { class: 'unit', 'aria-hidden': 'true' }, n.unit) : null),
            hint(`${kind}${bounds ? `, ${bounds}` : ''}${n.unit ? `, in ${n.unit}` : ''}`), s.err), get: s.get, set: s.set };
        }
        case 'string': {
          const s = scalarInput(id, path, null, (t) => t, hintId);
          const rules = stringRules(n);
          return { el: el('div', { class: 'field' }, el('label', { for: id }, label), s.input, hint(`string${rules ? `, ${rules}` : ''}`), s.err), get: s.get, set: s.set };
        }
        case 'boolean': {
          const err = el('div', { class: 'err', id: `${id}-err` });
          const select = el('select', { id, 'aria-describedby': `${id}-err` }, el('option', { value: 'false' }, 'false'), el('option', { value: 'true' }, 'true'));
          register(path, select, err);
          return { el: el('div', { class: 'field' }, el('label', { for: id }, label), select, err), get: () => select.value === 'true', set: (v) => { select.value = v ? 'true' : 'false'; } };
        }
        case 'null':
          return { el: el('div', { class: 'field' }, el('span', { class: 'label' }, label), el('code', {}, 'null')), get: () => null, set: () => {} };
        case 'literal':
          return { el: el('div', { class: 'field' }, el('span', { class: 'label' }, label), el('code', {}, JSON.stringify(n.value)), el('span', { class: 'hint' }, ' (fixed)')), get: () => n.value, set: () => {} };
        case 'enum': {
          const err = el('div', { class: 'err', id: `${id}-err` });
          const select = el('select', { id, 'aria-describedby': `${id}-err` }, n.values.map((v, i) => el('option', { value: String(i) }, JSON.stringify(v))),
            n.open ? el('option', { value: 'other' }, 'another value…') : null);
          const otherId = uid('f');
          const other = el('input', { id: otherId, type: 'text', hidden: true, autocomplete: 'off' });
          const otherLabel = el('label', { for: otherId, hidden: true }, `${label}: another value`);
          select.addEventListener('change', () => { other.hidden = otherLabel.hidden = select.value !== 'other'; });
          register(path, select, err);
          return { el: el('div', { class: 'field' }, el('label', { for: id }, label), select, otherLabel, other, n.open ? hint('open enum: a later version may add values') : null, err),
            get: () => (select.value === 'other' ? parseNumber(other.value) : n.values[Number(select.value)]),
            set: (v) => { const i = n.values.findIndex((x) => x === v); if (i >= 0) select.value = String(i); else if (n.open) { select.value = 'other'; other.hidden = otherLabel.hidden = false; other.value = String(v); } } };
        }
        case 'object': {
          const err = el('div', { class: 'err' });
          const fs = el('fieldset', {}, el('legend', {}, label));
          const fields = Object.entries(n.fields || {}).map(([name, f]) => {
            const fe = fieldEditor(f, ns, pointer(path, name), name, depth + 1);
            fs.append(fe.el);
            return [name, fe];
          });
          if (!fields.length) fs.append(el('p', { class: 'hint' }, n.closed ? 'no members' : 'any members'));
          fs.append(err);
          register(path, fs, err);
          return { el: fs,
            get: () => { const o = {}; for (const [name, fe] of fields) { const v = fe.get(); if (v !== UNSET) o[name] = v; } return o; },
            set: (v) => { if (v && typeof v === 'object') for (const [name, fe] of fields) fe.set(Object.prototype.hasOwnProperty.call(v, name) ? v[name] : UNSET); } };
        }
        case 'array': case 'map': case 'tuple': {
          const err = el('div', { class: 'err' });
          const fs = el('fieldset', {}, el('legend', {}, label, ' ', el('span', { class: 'hint' }, kind === 'array' ? numberHint(n) : kind)));
          const list = el('div', {});
          const rows = [];
          const isMap = kind === 'map';
          const addRow = (value) => {
            const index = rows.length;
            const row = { wrap: el('div', { class: 'row-item' }) };
            if (isMap) {
              const keyId = uid('k');
              row.key = el('input', { id: keyId, type: 'text', autocomplete: 'off' });
              row.wrap.append(el('label', { for: keyId }, `${label}: key ${index + 1}`), row.key);
              row.editor = build(n.values, ns, pointer(path, `#${index}`), `${label}: value ${index + 1}`, depth + 1);
            } else {
              row.editor = build(kind === 'tuple' ? n.elements[index] : n.items, ns, pointer(path, index), `${label} [${index}]`, depth + 1);
            }
            row.wrap.append(row.editor.el);
            if (kind !== 'tuple') {
              row.wrap.append(el('button', { type: 'button', onclick: () => { rows.splice(rows.indexOf(row), 1); row.wrap.remove(); changed(fs); } }, `Remove ${isMap ? 'entry' : 'item'} ${index + 1}`));
            }
            rows.push(row);
            list.append(row.wrap);
            if (value !== undefined) {
              if (isMap) { row.key.value = value[0]; row.editor.set(value[1]); } else row.editor.set(value);
            }
          };
          const reset = () => { rows.length = 0; list.textContent = ''; };
          fs.append(list);
          if (kind === 'tuple') (n.elements || []).forEach(() => addRow());
          else {
            for (let i = 0; i < (n.minItems || 0) && i < 16; i++) addRow();
            fs.append(el('button', { type: 'button', onclick: () => { addRow(); changed(fs); } }, isMap ? `Add entry to ${label}` : `Add item to ${label}`));
          }
          fs.append(err);
          register(path, fs, err);
          return { el: fs,
            get: () => {
              if (isMap) { const o = {}; for (const r2 of rows) { const v = r2.editor.get(); o[r2.key.value] = v === UNSET ? null : v; } return o; }
              return rows.map((r2) => { const v = r2.editor.get(); return v === UNSET ? null : v; });
            },
            set: (v) => {
              reset();
              if (isMap && v && typeof v === 'object' && !Array.isArray(v)) Object.entries(v).forEach((e) => addRow(e));
              else if (Array.isArray(v)) { if (kind === 'tuple') v.forEach((x, i) => { addRow(); if (i < rows.length) rows[i].editor.set(x); }); else v.forEach((x) => addRow(x)); }
            } };
        }
        case 'union': {
          const err = el('div', { class: 'err' });
          const variants = n.variants || [];
          const pickId = uid('arm');
          const picker = el('select', { id: pickId }, variants.map((v, i) => el('option', { value: String(i) }, armLabel(v, ns, n.discriminator))));
          const holder = el('div', {});
          let arm = null;
          const pick = (i) => { picker.value = String(i); holder.textContent = ''; arm = variants.length ? build(variants[i], ns, path, `${label} (${armLabel(variants[i], ns, n.discriminator)})`, depth + 1) : null; if (arm) holder.append(arm.el); };
          picker.addEventListener('change', () => { pick(Number(picker.value)); changed(holder); });
          const fs = el('fieldset', {}, el('legend', {}, label), el('label', { for: pickId }, `Which arm of ${label}`), picker, holder, err);
          pick(0);
          register(path, fs, err);
          return { el: fs, get: () => (arm ? arm.get() : null), set: (v) => { pick(armOf(variants, ns, n.discriminator, v)); if (arm) arm.set(v); } };
        }
        default: { // any, and forms nested too deep
          const err = el('div', { class: 'err', id: `${id}-err` });
          const area = el('textarea', { id, rows: 3, spellcheck: 'false', 'aria-describedby': `${id}-err` });
          register(path, area, err);
          return { el: el('div', { class: 'field' }, el('label', { for: id }, label, el('span', { class: 'hint' }, ' (any JSON value)')), area, err),
            get: () => { const v = parseJson(area.value); return v === UNSET ? null : v; }, set: (v) => { area.value = JSON.stringify(v, null, 2); } };
        }
      }
    }

    function numberHint(n) {
      return n.minItems !== undefined || n.maxItems !== undefined ? `${n.minItems ?? 0} to ${n.maxItems ?? 'any number of'} items` : 'list';
    }

    // A member or param: optional ones are left out unless their box is ticked; their editor is
    // made only then (so recursive types stay finite).
    function fieldEditor(f, ns, path, name, depth) {
      const wrap = el('div', { class: 'member' });
      const desc = f.description ? el('div', { class: 'hint' }, f.description) : null;
      const dep = isDeprecated(f) ? el('span', { class: 'badge dep' }, `deprecated${deprecationNote(f)}`) : null;
      if (!inputOptional(f)) {
        const e = build(f.type, ns, path, name, depth);
        wrap.append(e.el);
        if (dep || desc) wrap.append(el('div', {}, dep, desc));
        return { el: wrap, get: e.get, set: (v) => { if (v !== UNSET) e.set(v); } };
      }
      const boxId = uid('opt');
      const box = el('input', { type: 'checkbox', id: boxId });
      const holder = el('div', {});
      let e = null;
      const toggle = () => {
        if (box.checked && !e) { e = build(f.type, ns, path, name, depth); holder.append(e.el); if (f.type.default !== undefined) e.set(f.type.default); }
        holder.hidden = !box.checked;
      };
      box.addEventListener('change', () => { toggle(); changed(wrap); });
      wrap.append(el('div', { class: 'row' }, box, el('label', { for: boxId }, `Send ${name}`), el('span', { class: 'hint' }, '(optional: left out unless ticked)'), dep), desc, holder);
      holder.hidden = true;
      return { el: wrap,
        get: () => (box.checked && e ? e.get() : UNSET),
        set: (v) => { box.checked = v !== UNSET && v !== undefined; toggle(); if (box.checked) e.set(v); } };
    }

    function changed(node) { node.dispatchEvent(new Event('input', { bubbles: true })); }

    return { build, fieldEditor, paths };
  }

  // ---- a method ----------------------------------------------------------------------------

  function showMethod(q) {
    const [nsName, name] = [q.slice(0, q.indexOf('.')), q.slice(q.indexOf('.') + 1)];
    const m = lookup('methods', q);
    const sem = semanticsOf(m);
    const params = m.params || [];
    const byPosition = m.paramStructure === 'by-position';
    const confirmation = (described.confirmations || {})[q] || { kind: 'undeclared', prompt: `${q}: this method declares no semantics: ask before pressing` };

    const header = el('h2', { class: isDeprecated(m) ? 'deprecated' : '' }, q, semBadge(sem), isDeprecated(m) ? el('span', { class: 'badge dep' }, `deprecated${deprecationNote(m)}`) : null);
    const parts = [header];
    if (sem === 'undeclared') parts.push(el('p', { class: 'notice' }, 'This method declares no semantics: ask before pressing.'));
    if (m.description) parts.push(prose(m.description));
    parts.push(el('h3', {}, 'Params'), params.length
      ? fieldTable(params.map((p) => ({ name: byPosition ? `${params.indexOf(p)}: ${p.name}` : p.name, f: p })), nsName, 1)
      : el('p', { class: 'muted' }, 'none'), el('p', { class: 'hint' }, `Sent ${byPosition ? 'by position (an array)' : m.paramStructure === 'by-name' ? 'by name (an object)' : 'by name or by position; this page sends them by name'}.`));
    parts.push(el('h3', {}, 'Result'), el('div', {}, typeView(m.result, nsName, 1)), m.result && m.result.description ? prose(m.result.description) : null);
    if (m.errors && m.errors.length) {
      parts.push(el('h3', {}, 'Declared errors'), el('table', {}, el('thead', {}, el('tr', {}, ...['code', 'message', 'when', 'data'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, m.errors.map((e) => el('tr', {}, el('td', {}, el('code', {}, String(e.code))), el('td', {}, e.message), el('td', {}, e.description ? prose(e.description) : ''), el('td', {}, e.data ? typeView(e.data, nsName, 1) : el('span', { class: 'muted' }, 'none')))))));
    }
    parts.push(...flowsOf(m, nsName));

    // The call form.
    const form = makeForm();
    const editors = params.map((p, i) => form.fieldEditor(p, nsName, byPosition ? `/${i}` : pointer('', p.name), p.name, 0));
    const formBox = el('div', { id: 'call-form' }, editors.map((e) => e.el));
    if (!params.length) formBox.append(el('p', { class: 'muted' }, 'This method takes no params.'));
    const rawId = uid('raw');
    const raw = el('textarea', { id: rawId, spellcheck: 'false', 'aria-describedby': 'raw-err' });
    const rawErr = el('div', { class: 'err', id: 'raw-err' });
    const rawBox = el('div', { hidden: true }, el('label', { for: rawId }, 'Params as JSON'), raw, rawErr);
    const formTab = el('button', { type: 'button', 'aria-pressed': 'true' }, 'Form');
    const rawTab = el('button', { type: 'button', 'aria-pressed': 'false' }, 'Raw JSON');
    const verdict = el('div', { id: 'params-verdict', role: 'status', 'aria-live': 'polite' });
    const summary = el('ul', { class: 'err', id: 'params-errors' });
    let mode = 'form';

    const fromForm = () => {
      if (byPosition) {
        const out = [];
        let last = -1;
        editors.forEach((e, i) => { const v = e.get(); if (v !== UNSET) { out[i] = v; last = i; } });
        for (let i = 0; i <= last; i++) if (out[i] === undefined) out[i] = null;
        return out.slice(0, last + 1);
      }
      const o = {};
      editors.forEach((e, i) => { const v = e.get(); if (v !== UNSET) o[params[i].name] = v; });
      return o;
    };
    const setForm = (value) => {
      editors.forEach((e, i) => {
        let v = UNSET;
        if (Array.isArray(value)) { if (i < value.length) v = value[i]; } else if (value && Object.prototype.hasOwnProperty.call(value, params[i].name)) v = value[params[i].name];
        e.set(v);
      });
    };
    const currentParams = () => {
      if (mode === 'form') return { ok: true, value: fromForm() };
      try { return { ok: true, value: JSON.parse(raw.value || '{}') }; } catch (err) { return { ok: false, message: `not JSON: ${err.message}` }; }
    };

    let timer = null;
    let seq = 0;
    const validate = async () => {
      // A control of a form no longer shown can still fire (a focused input's change when it
      // is removed): nothing to check then.
      if (!formBox.isConnected) return;
      const p = currentParams();
      rawErr.textContent = p.ok ? '' : p.message;
      raw.setAttribute('aria-invalid', p.ok ? 'false' : 'true');
      if (!p.ok) { verdict.textContent = 'The params are not JSON.'; verdict.className = 'bad'; return; }
      const mine = ++seq;
      const { status, json } = await api('/console/api/validate', { method: q, params: p.value });
      if (mine !== seq) return;
      for (const { control, err } of form.paths.values()) { control.removeAttribute('aria-invalid'); err.textContent = ''; }
      summary.textContent = '';
      if (status !== 200 || !json) { verdict.textContent = `Could not validate: ${json && json.error ? json.error : `HTTP ${status}`}`; verdict.className = 'bad'; return; }
      if (json.valid) { verdict.textContent = 'The params keep the contract.'; verdict.className = 'good'; return; }
      verdict.textContent = `The params break the contract: ${json.errors.length} problem${json.errors.length === 1 ? '' : 's'} (accord-validate).`;
      verdict.className = 'bad';
      for (const e of json.errors) {
        const text = `${e.path || '(params)'}: expected ${e.expected}, found ${e.found}`;
        summary.append(el('li', {}, text));
        const target = mode === 'form' ? (form.paths.get(e.path) || nearestPath(form.paths, e.path)) : null;
        if (target) { target.control.setAttribute('aria-invalid', 'true'); target.err.textContent = `expected ${e.expected}, found ${e.found}`; }
      }
    };
    const schedule = () => { clearTimeout(timer); timer = setTimeout(validate, 120); };
    formBox.addEventListener('input', schedule);
    formBox.addEventListener('change', schedule);
    raw.addEventListener('input', schedule);
    formTab.addEventListener('click', () => {
      const p = currentParams();
      if (p.ok) setForm(p.value);
      mode = 'form'; formBox.hidden = false; rawBox.hidden = true; formTab.setAttribute('aria-pressed', 'true'); rawTab.setAttribute('aria-pressed', 'false'); schedule();
    });
    rawTab.addEventListener('click', () => {
      raw.value = JSON.stringify(fromForm(), null, 2);
      mode = 'raw'; formBox.hidden = true; rawBox.hidden = false; formTab.setAttribute('aria-pressed', 'false'); rawTab.setAttribute('aria-pressed', 'true'); schedule();
    });

    const examples = m.examples || [];
    const useExample = (ex) => { if (mode === 'raw') raw.value = JSON.stringify(ex.params, null, 2); else setForm(ex.params); schedule(); };
    if (examples.length) setForm(examples[0].params);

    const callButton = el('button', { type: 'button', id: 'call', class: sem === 'destructive' ? 'danger' : 'primary' },
      confirmation.kind === 'none' ? `Call ${q}` : `Call ${q}…`);
    const answerBox = el('div', { id: 'answer', 'aria-live': 'polite' });
    callButton.addEventListener('click', async () => {
      const p = currentParams();
      if (!p.ok) { verdict.textContent = 'The params are not JSON.'; return; }
      let token;
      if (confirmation.kind !== 'none') {
        token = await askConfirmation(q, confirmation, p.value);
        if (!token) return;
      }
      callButton.disabled = true;
      try { await makeCall(q, p.value, token, answerBox, nsName, m); } finally { callButton.disabled = false; }
    });

    parts.push(el('h3', {}, `Call ${q}`),
      el('p', { class: 'hint', id: 'confirm-rule' }, confirmation.kind === 'none' ? 'A read: called at once.' : confirmation.prompt),
      el('div', { class: 'tabs', role: 'group', 'aria-label': 'How to edit the params' }, formTab, rawTab),
      formBox, rawBox, verdict, summary,
      el('div', { class: 'row' }, callButton),
      answerBox);
    if (examples.length) {
      parts.push(el('h3', {}, 'Examples'), examples.map((ex, i) => el('div', { class: 'example' },
        el('h4', {}, ex.name || `Example ${i + 1}`), ex.description ? prose(ex.description) : null,
        el('pre', { class: 'json', tabindex: '0' }, `params: ${JSON.stringify(ex.params)}${ex.result !== undefined ? `\nresult: ${JSON.stringify(ex.result, null, 2)}` : ''}`),
        el('button', { type: 'button', onclick: () => useExample(ex) }, `Use ${ex.name ? `“${ex.name}”` : `example ${i + 1}`} in the form`))));
    }
    show(...parts);
    schedule();
    current = () => clearTimeout(timer);
  }

  function nearestPath(paths, path) {
    let p = path;
    while (p) { p = p.slice(0, p.lastIndexOf('/')); if (paths.has(p)) return paths.get(p); }
    return null;
  }

  function askConfirmation(q, confirmation, params) {
    const dialog = $('confirm');
    const typedRow = $('confirm-typed-row');
    const typed = $('confirm-typed');
    const yes = $('confirm-yes');
    $('confirm-prompt').textContent = confirmation.prompt;
    $('confirm-call').textContent = `${q} ${JSON.stringify(params)}`;
    $('confirm-error').textContent = '';
    const needsName = confirmation.kind === 'type-name';
    typedRow.hidden = !needsName;
    typed.value = '';
    $('confirm-typed-label').textContent = `Type ${q} to confirm`;
    yes.textContent = needsName ? `Call ${q}` : `Yes, call ${q}`;
    yes.className = needsName ? 'danger' : 'primary';
    yes.disabled = needsName;
    const onTyped = () => { yes.disabled = typed.value !== q; };
    typed.addEventListener('input', onTyped);
    return new Promise((resolve) => {
      const form = $('confirm-form');
      const onSubmit = async (event) => {
        const submitter = event.submitter;
        if (!submitter || submitter.value !== 'yes') { finish(null); return; }
        event.preventDefault();
        const { status, json } = await api('/console/api/confirm', { method: q, params, typed: needsName ? typed.value : undefined });
        if (status !== 200 || !json || !json.confirmation) { $('confirm-error').textContent = (json && json.error) || `HTTP ${status}`; return; }
        dialog.close();
        finish(json.confirmation);
      };
      const onCancel = () => finish(null);
      const finish = (token) => {
        form.removeEventListener('submit', onSubmit);
        dialog.removeEventListener('cancel', onCancel);
        typed.removeEventListener('input', onTyped);
        if (dialog.open) dialog.close();
        resolve(token);
      };
      form.addEventListener('submit', onSubmit);
      dialog.addEventListener('cancel', onCancel);
      dialog.showModal();
      (needsName ? typed : yes).focus();
    });
  }

  async function makeCall(q, params, token, box, ns, m) {
    box.textContent = '';
    box.append(el('p', { class: 'muted' }, 'Calling…'));
    const { status, json } = await api('/console/api/call', { method: q, params, confirmation: token });
    box.textContent = '';
    if (status === 428) {
      box.append(el('p', { class: 'bad', id: 'call-refused' }, json.error));
      return;
    }
    if (status !== 200 || !json) {
      box.append(el('p', { class: 'bad' }, `The console could not make the call: ${(json && json.error) || `HTTP ${status}`}`));
      return;
    }
    const check = json.check;
    const response = json.response;
    put(box, el('h3', {}, 'Answer'),
      el('p', {}, `HTTP ${json.status}. `, response && response.error ? `Error ${response.error.code}: ${response.error.message}. ` : '',
        check ? el('span', { class: check.valid ? 'good' : 'bad', id: 'answer-verdict' },
          check.valid ? `Keeps the contract (checked against ${check.against}).` : `Breaks the contract (checked against ${check.against}).`) : el('span', { class: 'bad', id: 'answer-verdict' }, 'The answer is not JSON.')),
      check && !check.valid ? el('ul', { class: 'err' }, check.errors.map((e) => el('li', {}, `${e.path || '(root)'}: expected ${e.expected}, found ${e.found}`))) : null,
      response && Object.prototype.hasOwnProperty.call(response, 'result') ? unitsOf(response.result, m.result, ns) : null,
      el('pre', { class: 'json', tabindex: '0', id: 'answer-json' }, response ? JSON.stringify(response, null, 2) : json.answer),
      el('h4', {}, 'As a conform transcript'),
      el('pre', { class: 'json', tabindex: '0', id: 'transcript' }, json.transcript),
      el('button', { type: 'button', onclick: (ev) => copy(json.transcript, ev.target) }, 'Copy the transcript lines'));
  }

  // The numbers of a result that carry a unit, each with it.
  function unitsOf(value, node, ns) {
    const rows = [];
    const walk = (v, n, nsx, path, depth) => {
      if (depth > 32 || rows.length > 200 || !n) return;
      const r = resolve(n, nsx);
      const t = r.node;
      if ((t.kind === 'integer' || t.kind === 'number') && typeof v === 'number' && t.unit) rows.push([path || '(result)', `${v} ${t.unit}`]);
      else if (t.kind === 'object' && v && typeof v === 'object') for (const [k, f] of Object.entries(t.fields || {})) { if (k in v) walk(v[k], f.type, r.ns, `${path}/${k}`, depth + 1); }
      else if (t.kind === 'array' && Array.isArray(v)) v.forEach((x, i) => walk(x, t.items, r.ns, `${path}/${i}`, depth + 1));
      else if (t.kind === 'tuple' && Array.isArray(v)) v.forEach((x, i) => walk(x, (t.elements || [])[i], r.ns, `${path}/${i}`, depth + 1));
      else if (t.kind === 'map' && v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, t.values, r.ns, `${path}/${k}`, depth + 1);
      else if (t.kind === 'union') for (const arm of t.variants || []) { const before = rows.length; walk(v, arm, r.ns, path, depth + 1); if (rows.length > before) break; }
    };
    walk(value, node, ns, '', 0);
    if (!rows.length) return null;
    return el('table', { class: 'units' }, el('caption', {}, 'Numbers with their units'), el('tbody', {}, rows.map(([p, v]) => el('tr', {}, el('td', {}, el('code', {}, p)), el('td', {}, v)))));
  }

  async function copy(text, button) {
    try { await navigator.clipboard.writeText(text); button.textContent = 'Copied'; } catch (_) {
      const range = document.createRange();
      range.selectNodeContents($('transcript'));
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      button.textContent = 'Selected: copy with Ctrl+C';
    }
  }

  // ---- an event ----------------------------------------------------------------------------

  // A method's links (format.md §5.11: which methods its params or result feed, and how) and
  // the events it may cause (§5.12), each target a link to its page when the contract has it.
  function flowsOf(m, nsName) {
    const out = [];
    const targetOf = (kind, ns, name) => {
      const q = `${ns || nsName}.${name}`;
      return lookup(kind === 'method' ? 'methods' : 'events', q)
        ? el('a', { href: `#/${kind}/${q}` }, q)
        : el('span', { class: 'bad' }, `${q} (not in the contract)`);
    };
    const links = Object.entries(m.links || {});
    if (links.length) {
      out.push(el('h3', {}, 'Links'),
        el('p', { class: 'hint' }, 'Methods whose params a call of this one gives: $params.NAME is this call\'s param, $result its result, with a path of members and indexes; other values are constants.'),
        el('table', { id: 'links' }, el('thead', {}, el('tr', {}, ...['link', 'leads to', 'params', 'what for'].map((h) => el('th', { scope: 'col' }, h)))),
          el('tbody', {}, links.map(([name, l]) => el('tr', {}, el('td', {}, name), el('td', {}, targetOf('method', l.namespace, l.method)),
            el('td', {}, Object.entries(l.params || {}).map(([p, v]) => el('div', {}, el('code', {}, p), ' = ', el('code', {}, typeof v === 'string' ? v : JSON.stringify(v))))),
            el('td', {}, l.description ? prose(l.description) : (l.summary || '')))))));
    }
    const causes = m.causes || [];
    if (causes.length) {
      out.push(el('h3', {}, 'Events it may cause'),
        el('ul', { id: 'causes' }, causes.map((c) => el('li', {}, targetOf('event', c.namespace, c.event), c.description ? ` — ${c.description}` : ''))));
    }
    return out;
  }

  // The methods whose `causes` name the event `q`.
  function causedBy(q) {
    const methods = Object.entries(namespaces()).flatMap(([n, ns]) => Object.entries(ns.methods || {})
      .filter(([, m]) => (m.causes || []).some((c) => `${c.namespace || n}.${c.event}` === q))
      .map(([name]) => `${n}.${name}`));
    return methods.length
      ? el('div', {}, el('h3', {}, 'Caused by'), el('ul', { id: 'caused-by' }, methods.map((mq) => el('li', {}, el('a', { href: `#/method/${mq}` }, mq)))))
      : null;
  }

  function showEvent(q) {
    const [ns] = [q.slice(0, q.indexOf('.'))];
    const e = lookup('events', q);
    const list = el('ol', { id: 'event-list' });
    const count = el('p', { id: 'event-count', role: 'status', 'aria-live': 'polite' }, 'Not subscribed.');
    let socket = null;
    let paused = false;
    let waiting = [];
    let received = 0;
    const subscribe = el('button', { type: 'button', id: 'subscribe', class: 'primary' }, 'Subscribe');
    const pause = el('button', { type: 'button', id: 'pause', disabled: true, 'aria-pressed': 'false' }, 'Pause');
    const clear = el('button', { type: 'button', id: 'clear' }, 'Clear');
    const emit = described.fake ? el('button', { type: 'button', id: 'emit', disabled: true }, 'Have the fake emit one') : null;
    const render = (m) => {
      list.prepend(el('li', {}, el('span', { class: m.check.valid ? 'good' : 'bad' }, m.check.valid ? 'keeps the contract' : 'breaks the contract'),
        ` #${m.n} `, el('pre', { class: 'json', tabindex: '0' }, JSON.stringify(m.payload, null, 2)),
        m.check.valid ? null : el('ul', { class: 'err' }, m.check.errors.map((x) => el('li', {}, `${x.path || '(payload)'}: expected ${x.expected}, found ${x.found}`)))));
      while (list.children.length > 200) list.lastChild.remove();
    };
    const status = (text) => { count.textContent = text; };
    const stop = () => { if (socket) { socket.close(); socket = null; } subscribe.textContent = 'Subscribe'; pause.disabled = true; if (emit) emit.disabled = true; };
    subscribe.addEventListener('click', () => {
      if (socket) { stop(); status(`Unsubscribed after ${received} payloads.`); return; }
      const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/console/api/events`;
      socket = new WebSocket(url);
      socket.addEventListener('open', () => socket.send(JSON.stringify({ subscribe: q, credential })));
      socket.addEventListener('message', (ev) => {
        const m = JSON.parse(ev.data);
        if (m.type === 'subscribed') { status('Subscribed: waiting for payloads.'); pause.disabled = false; if (emit) emit.disabled = false; }
        else if (m.type === 'event') {
          m.n = ++received;
          if (paused) { waiting.push(m); status(`Paused: ${waiting.length} waiting, ${received} received.`); } else { render(m); status(`${received} received.`); }
        } else if (m.type === 'error') { status(`Error: ${m.error}`); }
      });
      socket.addEventListener('close', () => { if (socket) { socket = null; stop(); } });
      subscribe.textContent = 'Unsubscribe';
      status('Subscribing…');
    });
    pause.addEventListener('click', () => {
      paused = !paused;
      pause.textContent = paused ? 'Resume' : 'Pause';
      pause.setAttribute('aria-pressed', String(paused));
      if (!paused) { waiting.forEach(render); waiting = []; status(`${received} received.`); }
    });
    clear.addEventListener('click', () => { list.textContent = ''; waiting = []; });
    if (emit) emit.addEventListener('click', () => { if (socket) socket.send(JSON.stringify({ emit: true })); });
    show(el('h2', { class: isDeprecated(e) ? 'deprecated' : '' }, q, el('span', { class: 'badge' }, 'event'), isDeprecated(e) ? el('span', { class: 'badge dep' }, `deprecated${deprecationNote(e)}`) : null),
      e.description ? prose(e.description) : null,
      el('h3', {}, 'Payload'), el('div', {}, typeView(e.payload, ns, 1)),
      causedBy(q),
      e.examples ? el('div', {}, el('h3', {}, 'Examples'), e.examples.map((x) => el('pre', { class: 'json', tabindex: '0' }, JSON.stringify(x, null, 2)))) : null,
      el('h3', {}, 'Watch it live'),
      el('p', { class: 'hint' }, 'Each payload is checked against the event\'s payload type by accord-validate as it arrives.'),
      el('div', { class: 'row' }, subscribe, pause, clear, emit), count, list);
    current = stop;
  }

  // ---- loading -----------------------------------------------------------------------------

  async function load() {
    $('status').textContent = 'Asking the plant what it serves…';
    let reply;
    try { reply = await api('/console/api/describe'); } catch (err) { $('status').textContent = `The console cannot be reached: ${err.message}`; return; }
    described = reply.json || { state: 'error', message: `HTTP ${reply.status}` };
    if (reply.status !== 200 && !described.state) described = { state: 'error', message: described.error || `HTTP ${reply.status}` };
    doc = described.state === 'full' ? described.contract : null;
    const statusText = {
      full: `Full contract${described.source === 'plant' ? ' from the plant' : ''}${credential ? '; credential in this page\'s memory' : ''}.`,
      reduced: 'Reduced answer: the plant needs a credential.',
      required: 'The plant needs a credential.',
      refused: 'The plant refused this credential.',
    }[described.state] || `Error: ${described.message || JSON.stringify(described.error)}`;
    $('status').textContent = statusText;
    $('title').textContent = doc && doc.name ? `${doc.name}: accord console` : 'accord console';
    document.title = $('title').textContent;
    buildNav();
    route();
    document.body.dataset.ready = described.state;
    // The browser test reads this mark: time to interactive, from navigation or credential.
    performance.mark(`accord-console-ready-${described.state}`);
  }

  function start() {
    $('credential-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const value = $('credential').value.trim();
      credential = value || null;
      $('credential').value = '';
      load();
    });
    $('forget').addEventListener('click', () => { credential = null; $('credential').value = ''; load(); });
    $('search').addEventListener('input', applySearch);
    window.addEventListener('hashchange', () => { route(); $('main').focus({ preventScroll: true }); });
    load();
  }

  start();
})();
