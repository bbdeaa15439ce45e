#!/usr/bin/env node
// Generates the regex dialect's `\p{…}` name tables: GENERAL_CATEGORIES and BINARY in
// src/regex/properties.rs, SCRIPTS in src/regex/scripts.rs (see README.md beside this file).
//
// A name is kept when all three sources agree on it:
//   1. ECMAScript lists it (the npm packages unicode-canonical-property-names-ecmascript,
//      unicode-property-aliases-ecmascript and unicode-property-value-aliases-ecmascript, pinned in
//      package.json): the names and aliases `\p{…}` may use, and the canonical name each one means;
//   2. the running Node.js (which must be the dialect's Node.js 20) accepts it in
//      `new RegExp('\\p{…}', 'u')`, in every spelling the dialect allows (`\p{Lu}`, `gc=Lu`,
//      `General_Category=Lu`; `Script=…`, `sc=…`, `Script_Extensions=…`, `scx=…`);
//   3. regex-syntax, at the version in Cargo.lock, has a table for the canonical name and maps
//      the name (after its UAX44-LM3 loose matching) to the same canonical name. Its own Unicode
//      table sources are read from Cargo's registry, so nothing is built.
// and the dialect's policy below does not leave it out (each exclusion says why).
//
// Usage: node generate.mjs            rewrite the three arrays in place
//        node generate.mjs --check    exit 1 if the committed tables differ from the generated ones
//        node generate.mjs --explain  also print every candidate name and why it is kept or not,
//                                     and compare every binary property both engines know
//                                     code point by code point
// Options: --regex-syntax-src DIR (regex-syntax's crate directory; default: found in Cargo's
//          registry from the version in Cargo.lock), --root DIR (the repository; default ../..).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import canonicalProperties from 'unicode-canonical-property-names-ecmascript';
import propertyAliases from 'unicode-property-aliases-ecmascript';
import valueAliases from 'unicode-property-value-aliases-ecmascript';

// ---------------------------------------------------------------------------------------------
// The dialect's policy (docs/regex-dialect.md; the dialect's spec, part 3).

/** The dialect is defined as what Node.js 20 accepts. */
const DIALECT_NODE_MAJOR = 20;

/** The regex-syntax release series the crate depends on (Cargo.toml: regex-syntax = "0.8"). */
const REGEX_SYNTAX_SERIES = '0.8.';

/**
 * The dialect's binary properties, by canonical name: the spec asks for "a short list of binary
 * properties", and this is that list (docs/regex-dialect.md names each one with its aliases).
 * Adding one is a change of the dialect: `--explain` shows, for every binary property that both
 * engines know, how many code points assigned in regex-syntax's Unicode version the two disagree
 * on; tests/regex_vs_v8.rs then checks every accepted name code point by code point.
 */
const DIALECT_BINARY = new Set([
  'ASCII',
  'ASCII_Hex_Digit',
  'Alphabetic',
  'Any',
  'Assigned',
  'Dash',
  'Emoji',
  'Emoji_Component',
  'Emoji_Modifier',
  'Emoji_Modifier_Base',
  'Emoji_Presentation',
  'Hex_Digit',
  'ID_Continue',
  'ID_Start',
  'Ideographic',
  'Lowercase',
  'Math',
  'Noncharacter_Code_Point',
  'Pattern_Syntax',
  'Pattern_White_Space',
  'Quotation_Mark',
  'Regional_Indicator',
  'Uppercase',
  'White_Space',
  'XID_Continue',
  'XID_Start',
]);

/** Names both engines know that the dialect leaves out, with the reason. */
const EXCLUDED = {
  // By canonical value: the value and all its aliases.
  General_Category: new Map([
    [
      'Surrogate',
      'matches only lone surrogates, which well-formed text never holds (and regex-syntax ' +
        'generates no Surrogate table: ucd-generate --exclude surrogate)',
    ],
  ]),
  Script: new Map([
    [
      'Unknown',
      'its members are the unassigned code points, which change with every Unicode version ' +
        '(and regex-syntax has no Unknown table)',
    ],
  ]),
  // By name: one alias of a property that is kept.
  binaryAlias: new Map([
    [
      'WSpace',
      "not ECMAScript: ECMA-262's table of binary property aliases gives White_Space the one " +
        "alias `space`; the npm list copies PropertyAliases.txt's `WSpace` as well, and V8 " +
        'accepts it (through ICU), but an engine that follows the table may reject it',
    ],
  ]),
};

/** Binary properties left out with a recorded reason (shown by --explain). */
const BINARY_NOTES = new Map([
  [
    'Extended_Pictographic',
    'Unicode 17.0 moved hundreds of code points out of it, so engines on Unicode 16.0 and 17.0 ' +
      'disagree on it',
  ],
]);

// ---------------------------------------------------------------------------------------------
// Command line.

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return false;
  args.splice(i, 1);
  return true;
};
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined) fail(`${name} needs a value`);
  args.splice(i, 2);
  return value;
};
function fail(message) {
  console.error(`regex-tables: ${message}`);
  process.exit(2);
}

const check = flag('--check');
const explain = flag('--explain');
const root = path.resolve(option('--root') ?? path.join(here, '..', '..'));
const regexSyntaxSrcOption = option('--regex-syntax-src');
if (args.length > 0)
  fail(`unknown arguments: ${args.join(' ')} (see the usage at the top of generate.mjs)`);

// ---------------------------------------------------------------------------------------------
// Node.js: what V8 accepts.

const nodeMajor = Number(process.versions.node.split('.')[0]);
if (nodeMajor !== DIALECT_NODE_MAJOR) {
  fail(
    `the dialect is defined by Node.js ${DIALECT_NODE_MAJOR}; this is Node.js ${process.versions.node}. ` +
      `Run it with Node.js ${DIALECT_NODE_MAJOR} (or change DIALECT_NODE_MAJOR with the dialect).`,
  );
}

function v8Accepts(body) {
  try {
    new RegExp(`\\p{${body}}`, 'u');
    return true;
  } catch (e) {
    if (e instanceof SyntaxError) return false;
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// regex-syntax: its version from Cargo.lock, its tables from its own sources.

function regexSyntaxVersion() {
  const lock = fs.readFileSync(path.join(root, 'Cargo.lock'), 'utf8');
  const versions = [
    ...lock.matchAll(/\[\[package\]\]\nname = "regex-syntax"\nversion = "([^"]+)"/g),
  ]
    .map((m) => m[1])
    .filter((v) => v.startsWith(REGEX_SYNTAX_SERIES));
  if (versions.length !== 1) {
    fail(
      `expected one regex-syntax ${REGEX_SYNTAX_SERIES}x in Cargo.lock, found ${versions.length}`,
    );
  }
  return versions[0];
}

function regexSyntaxDir(version) {
  if (regexSyntaxSrcOption) return path.resolve(regexSyntaxSrcOption);
  const cargoHome = process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo');
  const registry = path.join(cargoHome, 'registry', 'src');
  const found = fs.existsSync(registry)
    ? fs
        .readdirSync(registry)
        .map((index) => path.join(registry, index, `regex-syntax-${version}`))
        .filter((dir) => fs.existsSync(path.join(dir, 'src', 'unicode_tables')))
    : [];
  if (found.length === 0) {
    fail(
      `regex-syntax ${version} sources not found under ${registry}: run \`cargo fetch\` in ${root} ` +
        'first, or pass --regex-syntax-src DIR',
    );
  }
  return found[0];
}

/** UAX44-LM3, as regex-syntax's `symbolic_name_normalize` applies it (unicode.rs). */
function normalize(name) {
  let s = name;
  const startsWithIs = s.length >= 2 && s.slice(0, 2).toLowerCase() === 'is';
  if (startsWithIs) s = s.slice(2);
  s = [...s]
    .filter((c) => c.codePointAt(0) <= 0x7f && c !== ' ' && c !== '_' && c !== '-')
    .join('')
    .toLowerCase();
  // regex-syntax's special case: `isc` is ISO_Comment's alias, not `c` (Other).
  if (startsWithIs && s === 'c') s = 'isc';
  return s;
}

function readRegexSyntax(dir) {
  const tables = path.join(dir, 'src', 'unicode_tables');
  const read = (file) => fs.readFileSync(path.join(tables, file), 'utf8');
  const unicodeVersions = new Set();
  const header = (src, file) => {
    const m = src.match(/^\/\/ Unicode version: ([0-9.]+)\.$/m);
    if (!m) fail(`no "Unicode version" header in ${file}`);
    unicodeVersions.add(m[1]);
    return src;
  };
  const pairs = (text) =>
    new Map([...text.matchAll(/\("([^"]*)", "([^"]*)"\)/g)].map((m) => [m[1], m[2]]));

  const valuesSrc = header(read('property_values.rs'), 'property_values.rs');
  const values = new Map();
  for (const m of valuesSrc.matchAll(/\(\s*"([A-Za-z_]+)",\s*&\[([\s\S]*?)\],\s*\)/g)) {
    values.set(m[1], pairs(m[2]));
  }
  const names = pairs(header(read('property_names.rs'), 'property_names.rs'));

  const byName = (file) => {
    const src = header(read(file), file);
    const m = src.match(/pub const BY_NAME: [^=]*= &\[([\s\S]*?)\];/);
    if (!m) fail(`no BY_NAME table in ${file}`);
    return new Map(
      [...m[1].matchAll(/\("([A-Za-z_]+)", ([A-Z0-9_]+)\)/g)].map((k) => [k[1], k[2]]),
    );
  };
  const rangeTables = (file) => {
    const src = read(file);
    const out = new Map();
    const char = String.raw`'((?:\\u\{[0-9a-fA-F]+\}|\\.|[^'\\])+)'`;
    const pair = new RegExp(String.raw`\(${char}, ${char}\)`, 'gu');
    for (const m of src.matchAll(
      /pub const ([A-Z0-9_]+): &'static \[\(char, char\)\] =\s*&\[([\s\S]*?)\];/g,
    )) {
      out.set(
        m[1],
        [...m[2].matchAll(pair)].map((k) => [rustChar(k[1]), rustChar(k[2])]),
      );
    }
    return out;
  };

  // `\p{Any}`, `\p{ASCII}` and `\p{Assigned}` have no table: regex-syntax's unicode.rs answers
  // them in `canonical_gencat` and builds their classes itself.
  const unicodeRs = fs.readFileSync(path.join(dir, 'src', 'unicode.rs'), 'utf8');
  const gencatFn = unicodeRs.match(/fn canonical_gencat\([\s\S]*?\n\}/);
  if (!gencatFn) fail('no canonical_gencat in regex-syntax unicode.rs');
  const special = new Map(
    [...gencatFn[0].matchAll(/"([a-z]+)" => Some\("([A-Za-z_]+)"\)/g)].map((m) => [m[1], m[2]]),
  );

  if (unicodeVersions.size !== 1)
    fail(`regex-syntax tables disagree on the Unicode version: ${[...unicodeVersions]}`);
  return {
    unicode: [...unicodeVersions][0],
    values,
    names,
    special,
    generalCategory: byName('general_category.rs'),
    script: byName('script.rs'),
    scriptExtension: byName('script_extension.rs'),
    bool: byName('property_bool.rs'),
    rangeTables,
  };
}

function rustChar(s) {
  if (s.startsWith('\\u{')) return parseInt(s.slice(3, -1), 16);
  const escapes = { '\\0': 0, '\\t': 9, '\\n': 10, '\\r': 13, "\\'": 39, '\\"': 34, '\\\\': 92 };
  if (s in escapes) return escapes[s];
  if (s.startsWith('\\')) fail(`unknown Rust escape ${s} in a regex-syntax table`);
  return s.codePointAt(0);
}

// ---------------------------------------------------------------------------------------------
// The tables.

const rsVersion = regexSyntaxVersion();
const rsDir = regexSyntaxDir(rsVersion);
const rs = readRegexSyntax(rsDir);
const packageVersion = (name) =>
  JSON.parse(fs.readFileSync(path.join(here, 'node_modules', name, 'package.json'), 'utf8'))
    .version;

/** Why each candidate was dropped, for --explain. */
const decisions = [];
const note = (table, name, kept, why) => decisions.push({ table, name, kept, why });

// The property names the Rust side spells out in `resolve` must mean what it assumes.
for (const [alias, canonical, value] of [
  ['gc', 'General_Category', 'Lu'],
  ['sc', 'Script', 'Latin'],
  ['scx', 'Script_Extensions', 'Latin'],
]) {
  if (propertyAliases.get(alias) !== canonical)
    fail(`ECMAScript no longer lists ${alias} as ${canonical}`);
  for (const spelling of [alias, canonical]) {
    if (!v8Accepts(`${spelling}=${value}`)) fail(`Node.js rejects \\p{${spelling}=${value}}`);
  }
}

/** Every name ECMAScript lists for a value of `property`, mapped to its canonical value. */
function ecmaValues(property) {
  const map = valueAliases.get(property);
  if (!map) fail(`unicode-property-value-aliases-ecmascript has no ${property}`);
  const out = new Map(map);
  for (const canonical of map.values()) out.set(canonical, canonical);
  return out;
}

function generalCategories() {
  const gc = rs.values.get('General_Category');
  const out = [];
  for (const [name, canonical] of ecmaValues('General_Category')) {
    const spellings = [name, `gc=${name}`, `General_Category=${name}`];
    const rejected = spellings.filter((s) => !v8Accepts(s));
    let why;
    if (EXCLUDED.General_Category.has(canonical))
      why = `excluded: ${EXCLUDED.General_Category.get(canonical)}`;
    else if (rejected.length)
      why = `Node.js rejects ${rejected.map((s) => `\\p{${s}}`).join(', ')}`;
    else if (!rs.generalCategory.has(canonical)) why = `regex-syntax has no ${canonical} table`;
    else if (gc.get(normalize(name)) !== canonical) {
      why = `regex-syntax reads ${name} as ${gc.get(normalize(name)) ?? 'nothing'}, not ${canonical}`;
    }
    note('GENERAL_CATEGORIES', name, !why, why ?? canonical);
    if (!why) out.push([name, canonical]);
  }
  return out;
}

function binaryProperties() {
  const names = new Map();
  for (const canonical of canonicalProperties) {
    if (!['General_Category', 'Script', 'Script_Extensions'].includes(canonical))
      names.set(canonical, canonical);
  }
  for (const [alias, canonical] of propertyAliases) {
    if (names.has(canonical)) names.set(alias, canonical);
  }
  const out = [];
  for (const [name, canonical] of names) {
    const knownToRs = rs.bool.has(canonical) || [...rs.special.values()].includes(canonical);
    const rsReading = rs.names.get(normalize(name)) ?? rs.special.get(normalize(name));
    let why;
    if (!DIALECT_BINARY.has(canonical)) {
      const reason = BINARY_NOTES.get(canonical);
      why = `not in the dialect's binary properties${reason ? `: ${reason}` : ''}`;
    } else if (EXCLUDED.binaryAlias.has(name)) why = `excluded: ${EXCLUDED.binaryAlias.get(name)}`;
    else if (!v8Accepts(name)) why = `Node.js rejects \\p{${name}}`;
    else if (!knownToRs) why = `regex-syntax has no ${canonical} table`;
    else if (rsReading !== canonical)
      why = `regex-syntax reads ${name} as ${rsReading ?? 'nothing'}, not ${canonical}`;
    note('BINARY', name, !why, why ?? canonical);
    if (!why) out.push([name, canonical]);
  }
  // A listed property that no source can back is a broken policy, not a name to drop quietly.
  for (const canonical of DIALECT_BINARY) {
    if (!out.some(([, c]) => c === canonical))
      fail(`the dialect's binary property ${canonical} is not known to all sources`);
  }
  return out;
}

function scripts() {
  const sc = rs.values.get('Script');
  const ecma = ecmaValues('Script');
  const scx = ecmaValues('Script_Extensions');
  const out = [];
  for (const [name, canonical] of ecma) {
    const spellings = [`Script=${name}`, `sc=${name}`, `Script_Extensions=${name}`, `scx=${name}`];
    const rejected = spellings.filter((s) => !v8Accepts(s));
    let why;
    if (EXCLUDED.Script.has(canonical)) why = `excluded: ${EXCLUDED.Script.get(canonical)}`;
    else if (scx.get(name) !== canonical)
      why = `ECMAScript's Script_Extensions does not list ${name} as ${canonical}`;
    else if (rejected.length)
      why = `Node.js rejects ${rejected.map((s) => `\\p{${s}}`).join(', ')}`;
    else if (!rs.script.has(canonical) || !rs.scriptExtension.has(canonical)) {
      why = `regex-syntax has no ${canonical} table (Unicode ${rs.unicode})`;
    } else if (sc.get(normalize(name)) !== canonical) {
      why = `regex-syntax reads ${name} as ${sc.get(normalize(name)) ?? 'nothing'}, not ${canonical}`;
    }
    note('SCRIPTS', name, !why, why ?? canonical);
    if (!why) out.push([name, canonical]);
  }
  return out;
}

/** Rust's `str` order (bytes), which `binary_search_by` in properties.rs relies on. */
const byName = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The comment the script writes at the top of each array: where the names come from. */
const header = (...packages) =>
  [
    '// Generated by tools/regex-tables/generate.mjs (see its README.md); do not edit by hand.',
    `// Names: ${packages.map((n) => `${n} ${packageVersion(n)}`).join(',\n// ')};`,
    `// kept when both Node.js ${nodeMajor} (ICU ${process.versions.icu}, Unicode ${process.versions.unicode})`,
    `// and regex-syntax ${rsVersion} (Unicode ${rs.unicode}) know them.`,
  ].flatMap((l) => l.split('\n'));

const generated = [
  {
    file: 'src/regex/properties.rs',
    declaration: 'const GENERAL_CATEGORIES: &[(&str, &str)] = &[',
    header: header('unicode-property-value-aliases-ecmascript'),
    entries: generalCategories(),
  },
  {
    file: 'src/regex/properties.rs',
    declaration: 'const BINARY: &[(&str, &str)] = &[',
    header: header(
      'unicode-canonical-property-names-ecmascript',
      'unicode-property-aliases-ecmascript',
    ),
    entries: binaryProperties(),
  },
  {
    file: 'src/regex/scripts.rs',
    declaration: 'pub(super) const SCRIPTS: &[(&str, &str)] = &[',
    header: header('unicode-property-value-aliases-ecmascript'),
    entries: scripts(),
  },
];
for (const table of generated) {
  table.entries.sort(byName);
  for (let i = 1; i < table.entries.length; i++) {
    if (table.entries[i - 1][0] === table.entries[i][0])
      fail(`${table.declaration}: ${table.entries[i][0]} twice`);
  }
}

// ---------------------------------------------------------------------------------------------
// --explain

if (explain) {
  for (const table of ['GENERAL_CATEGORIES', 'BINARY', 'SCRIPTS']) {
    console.log(`\n${table}`);
    for (const d of decisions
      .filter((x) => x.table === table)
      .sort((a, b) => byName([a.name], [b.name]))) {
      console.log(`  ${d.kept ? '+' : '-'} ${d.name.padEnd(30)} ${d.why}`);
    }
  }
  explainBinaryCodePoints();
}

/**
 * For each ECMAScript binary property that both engines know: the code points assigned in
 * regex-syntax's Unicode version on which V8 and regex-syntax's table disagree (the evidence for
 * adding a property to DIALECT_BINARY, or for leaving it out).
 */
function explainBinaryCodePoints() {
  const bool = rs.rangeTables('property_bool.rs');
  const unassigned = rs
    .rangeTables('general_category.rs')
    .get(rs.generalCategory.get('Unassigned'));
  const set = (ranges) => {
    const bits = new Uint8Array(0x110000);
    for (const [lo, hi] of ranges) bits.fill(1, lo, hi + 1);
    return bits;
  };
  if (!unassigned) fail('regex-syntax general_category.rs: no Unassigned table');
  const skip = set(unassigned);
  skip.fill(1, 0xd800, 0xe000);
  console.log(
    `\nBinary properties both engines know (+ in the dialect): code points assigned in Unicode ` +
      `${rs.unicode} where Node.js (Unicode ${process.versions.unicode}) and regex-syntax's table disagree`,
  );
  for (const canonical of [...canonicalProperties].sort()) {
    if (!rs.bool.has(canonical) || !v8Accepts(canonical)) continue;
    const ranges = bool.get(rs.bool.get(canonical));
    if (!ranges) fail(`regex-syntax property_bool.rs: no table ${rs.bool.get(canonical)}`);
    const ours = set(ranges);
    const re = new RegExp(`^\\p{${canonical}}$`, 'u');
    const differing = [];
    for (let cp = 0; cp < 0x110000; cp++) {
      if (skip[cp]) continue;
      if (re.test(String.fromCodePoint(cp)) !== (ours[cp] === 1)) differing.push(cp);
    }
    const sample = differing
      .slice(0, 4)
      .map((cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
    if (differing.length > 4) sample.push('…');
    const mark = DIALECT_BINARY.has(canonical) ? '+' : '-';
    const examples = sample.length ? ` (${sample.join(', ')})` : '';
    console.log(`  ${mark} ${canonical.padEnd(30)} ${differing.length}${examples}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Rewrite or check the Rust sources.

const render = (table) =>
  [
    ...table.header.map((l) => `    ${l}`),
    ...table.entries.map(([n, c]) => `    (${JSON.stringify(n)}, ${JSON.stringify(c)}),`),
  ].join('\n');

function region(text, table) {
  const start = text.indexOf(`${table.declaration}\n`);
  if (start < 0 || text.indexOf(`${table.declaration}\n`, start + 1) >= 0) {
    fail(`${table.file}: expected exactly one line \`${table.declaration}\``);
  }
  const bodyStart = start + table.declaration.length + 1;
  const bodyEnd = text.indexOf('\n];', bodyStart);
  if (bodyEnd < 0) fail(`${table.file}: no \`];\` after \`${table.declaration}\``);
  return { bodyStart, bodyEnd, body: text.slice(bodyStart, bodyEnd) };
}

const entriesOf = (body) =>
  [...body.matchAll(/^\s*\("([^"]*)", "([^"]*)"\),$/gm)].map((m) => [m[1], m[2]]);
const commentsOf = (body) =>
  body
    .split('\n')
    .filter((l) => l.trim().startsWith('//'))
    .map((l) => l.trim());

const files = new Map();
const text = (file) => {
  if (!files.has(file)) files.set(file, fs.readFileSync(path.join(root, file), 'utf8'));
  return files.get(file);
};

let differs = false;
for (const table of generated) {
  const name = table.declaration.match(/const (\w+)/)[1];
  const { bodyStart, bodyEnd, body } = region(text(table.file), table);
  if (check) {
    const committed = entriesOf(body);
    const key = ([n, c]) => `(${JSON.stringify(n)}, ${JSON.stringify(c)})`;
    const want = new Set(table.entries.map(key));
    const have = new Set(committed.map(key));
    const missing = table.entries.map(key).filter((k) => !have.has(k));
    const extra = committed.map(key).filter((k) => !want.has(k));
    const order = committed.map(key).join() !== table.entries.map(key).join();
    if (missing.length || extra.length || order) {
      differs = true;
      console.error(`${table.file} ${name}: differs from the generated table`);
      for (const k of missing) console.error(`  + ${k}  (generated, not committed)`);
      for (const k of extra) console.error(`  - ${k}  (committed, not generated)`);
      if (!missing.length && !extra.length) console.error('  same entries in another order');
    } else if (commentsOf(body).join('\n') !== table.header.join('\n')) {
      // The entries are what decides behaviour; a header from another ICU build of Node.js 20
      // is worth knowing but not a failure.
      console.log(`${table.file} ${name}: entries equal; the header records other versions:`);
      for (const l of commentsOf(body)) console.log(`  committed: ${l}`);
      for (const l of table.header) console.log(`  generated: ${l}`);
    } else {
      console.log(`${table.file} ${name}: ${table.entries.length} entries, up to date`);
    }
  } else {
    const updated =
      text(table.file).slice(0, bodyStart) + render(table) + text(table.file).slice(bodyEnd);
    files.set(table.file, updated);
    console.log(`${table.file} ${name}: ${table.entries.length} entries`);
  }
}

if (check) {
  if (differs) {
    console.error(
      'regex-tables: the committed tables differ; run `node tools/regex-tables/generate.mjs` and review the diff',
    );
    process.exit(1);
  }
} else {
  for (const [file, content] of files) {
    const full = path.join(root, file);
    if (fs.readFileSync(full, 'utf8') !== content) fs.writeFileSync(full, content);
  }
}
