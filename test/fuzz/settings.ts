/**
 * How hard the fuzz suites try: a few hundred runs per property in `npm test`, 10,000 from
 * `npm run bench -- fuzz` (which sets FUZZ_RUNS). Test timeouts grow with the runs.
 */
export const FUZZ_RUNS = Number(process.env['FUZZ_RUNS'] ?? 300);

/** Per-test timeout in milliseconds for a property run FUZZ_RUNS times. */
export const FUZZ_TIMEOUT = Math.max(20_000, FUZZ_RUNS * 20);
