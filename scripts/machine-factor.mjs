// How slow this machine is right now, next to the idle machine the tests' limits were written on: the time limits a
// test hands to the code under test (a per-test timeout, a server's deadline it does not measure) are multiplied by
// it, so a machine under load (CI beside other jobs, two cores at load 30) passes where an idle one does.
// Measured once per process by a fixed CPU-bound loop; MCP_AGENT_TEST_FACTOR, when set, is used instead.

/** Iterations of one calibration round: about 11 ms of one core on the idle reference machine. */
const ROUNDS = 3;
const ITERATIONS = 10_000_000;
/** What one round took on the reference machine, idle (measured as CPU time, which load does not stretch). */
const REFERENCE_MS = 11;
/** Past this a machine is too slow for any limit to mean much; capping keeps a wild measurement from hiding a hang. */
const MAX_FACTOR = 20;

let measured;

function spin(n) {
  let x = 1;
  for (let i = 0; i < n; i++) x = (Math.imul(x, 1664525) + 1013904223) | 0;
  return x;
}

/** The factor (1 to 20) this process's limits are multiplied by: measured on the first call, the same after. */
export function machineFactor() {
  if (measured !== undefined) return measured;
  const forced = Number(process.env.MCP_AGENT_TEST_FACTOR);
  if (forced > 0) return (measured = forced);
  spin(100_000); // compiled before it is timed
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    spin(ITERATIONS);
    rounds.push(performance.now() - started);
  }
  // The median: one round that lost the core for a moment does not make the machine look slower than it is.
  const median = rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
  return (measured = Math.min(MAX_FACTOR, Math.max(1, median / REFERENCE_MS)));
}

/** `ms` on this machine now: the limit written for an idle machine, times the machine factor. */
export function scaled(ms) {
  return Math.round(ms * machineFactor());
}
