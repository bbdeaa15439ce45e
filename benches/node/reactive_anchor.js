// The JavaScript reference renderer's change propagation, written from its description: one
// subscriber set per bound path string; a write at P notifies P, every ancestor of P up to the
// root, and every registered path under P, found by scanning all of them. Same workload as
// benches/reactive.rs: N keys on /rows/i/name, 100 on /rows, 100 on /, 100 on unrelated paths;
// one change at /rows/{N/2}/name (201 keys affected). No dependencies: `node benches/node/reactive_anchor.js`.
class Signals {
  constructor() { this.byPath = new Map(); }
  register(key, path) {
    let subs = this.byPath.get(path);
    if (!subs) { subs = new Set(); this.byPath.set(path, subs); }
    subs.add(key);
  }
  affected(change) {
    const out = new Set();
    const add = (path) => { const subs = this.byPath.get(path); if (subs) for (const k of subs) out.add(k); };
    add(change);
    let p = change;
    while (p !== '/') {
      const i = p.lastIndexOf('/');
      p = i <= 0 ? '/' : p.slice(0, i);
      add(p);
    }
    const prefix = change === '/' ? '/' : change + '/';
    for (const [path, subs] of this.byPath) if (path.startsWith(prefix)) for (const k of subs) out.add(k);
    return out;
  }
}
for (const n of [1000, 10000, 100000]) {
  const signals = new Signals();
  for (let i = 0; i < n; i++) signals.register(i, `/rows/${i}/name`);
  for (let k = 0; k < 100; k++) {
    signals.register(n + k, '/rows');
    signals.register(n + 100 + k, '/');
    signals.register(n + 200 + k, `/settings/${k}/value`);
  }
  const change = `/rows/${n / 2}/name`;
  if (signals.affected(change).size !== 201) throw new Error('wrong workload');
  let sink = 0;
  const t0 = process.hrtime.bigint();
  while (process.hrtime.bigint() - t0 < 1_000_000_000n) sink += signals.affected(change).size;
  const reps = Math.max(1, Math.round(2_000_000 / n));
  const times = [];
  for (let r = 0; r < 31; r++) {
    const s = process.hrtime.bigint();
    for (let k = 0; k < reps; k++) sink += signals.affected(change).size;
    times.push(Number(process.hrtime.bigint() - s) / reps / 1000);
  }
  times.sort((a, b) => a - b);
  console.log(`n=${n} median ${times[15].toFixed(2)} µs min ${times[0].toFixed(2)} µs (${sink > 0})`);
}
