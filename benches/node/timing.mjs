// What the Node halves of the benchmarks share: how one operation is timed and summarised.

/** Min and median of a list of times (sorts it). */
export function stats(times) {
  times.sort((a, b) => a - b);
  return { min: times[0], median: times[Math.floor(times.length / 2)] };
}

/** A time in µs as text, in ms from 1 000 µs. */
export function fmt(us) {
  return us >= 1000 ? `${(us / 1000).toFixed(3)} ms` : `${us.toFixed(2)} µs`;
}

/**
 * Times `op(turn)` in µs per call: one second of warm-up, then `batches` batches of as many calls
 * as fill `budgetNs` (judged from one call), each batch's mean kept; min and median of those.
 */
export function measure(op, budgetNs, batches) {
  const t0 = process.hrtime.bigint();
  let turn = 0;
  while (process.hrtime.bigint() - t0 < 1_000_000_000n) op(turn++);
  const one = process.hrtime.bigint();
  op(turn++);
  const single = Number(process.hrtime.bigint() - one);
  const reps = Math.max(1, Math.round(budgetNs / Math.max(single, 1)));
  const times = [];
  for (let r = 0; r < batches; r++) {
    const s = process.hrtime.bigint();
    for (let k = 0; k < reps; k++) op(turn++);
    times.push(Number(process.hrtime.bigint() - s) / reps / 1000);
  }
  return stats(times);
}
