// `node --test` (from tools/regex-tables, after `npm ci`): the generator against copies of the
// committed sources, so that `--check` is shown to fail on a changed table and to pass on the
// committed one.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..', '..');
const sources = ['src/regex/properties.rs', 'src/regex/scripts.rs'];
const roots = [];
after(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

/** A repository with the committed Cargo.lock and table sources, `edit` applied to each source. */
function copy(edit = (text) => text) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'regex-tables-'));
  roots.push(root);
  fs.mkdirSync(path.join(root, 'src', 'regex'), { recursive: true });
  fs.copyFileSync(path.join(repo, 'Cargo.lock'), path.join(root, 'Cargo.lock'));
  for (const file of sources) {
    fs.writeFileSync(
      path.join(root, file),
      edit(fs.readFileSync(path.join(repo, file), 'utf8'), file),
    );
  }
  return root;
}

const run = (root, ...args) =>
  spawnSync(process.execPath, [path.join(here, 'generate.mjs'), '--root', root, ...args], {
    encoding: 'utf8',
  });

test('--check passes on the committed tables', () => {
  const result = run(copy(), '--check');
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /SCRIPTS: \d+ entries, up to date/);
});

test('--check fails on a missing, an added and a remapped name, and names them', () => {
  const root = copy((text) =>
    text
      .replace('    ("Yi", "Yi"),\n', '')
      .replace('("space", "White_Space")', '("WSpace", "White_Space")')
      .replace('("Lu", "Uppercase_Letter")', '("Lu", "Lowercase_Letter")'),
  );
  const result = run(root, '--check');
  assert.equal(result.status, 1);
  assert.match(result.stderr, /\+ \("Yi", "Yi"\)/);
  assert.match(result.stderr, /- \("WSpace", "White_Space"\)/);
  assert.match(result.stderr, /- \("Lu", "Lowercase_Letter"\)/);
  assert.match(result.stderr, /\+ \("Lu", "Uppercase_Letter"\)/);
});

test('--check fails on entries out of order (the Rust side binary-searches them)', () => {
  const root = copy((text) =>
    text.replace(
      '    ("Adlam", "Adlam"),\n    ("Adlm", "Adlam"),',
      '    ("Adlm", "Adlam"),\n    ("Adlam", "Adlam"),',
    ),
  );
  const result = run(root, '--check');
  assert.equal(result.status, 1);
  assert.match(result.stderr, /same entries in another order/);
});

test('generating rewrites only the arrays, and gives back the committed sources', () => {
  const root = copy((text) => text.replace(/\n    \("[^"]*", "[^"]*"\),(?=\n)/g, ''));
  const emptied = fs.readFileSync(path.join(root, 'src/regex/scripts.rs'), 'utf8');
  assert.doesNotMatch(emptied, /\("Adlam", "Adlam"\)/);
  const result = run(root);
  assert.equal(result.status, 0, result.stderr);
  for (const file of sources) {
    assert.equal(
      fs.readFileSync(path.join(root, file), 'utf8'),
      fs.readFileSync(path.join(repo, file), 'utf8'),
      file,
    );
  }
});
