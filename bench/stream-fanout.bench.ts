// The change stream's fan-out (bench/scale/streams.ts): 500 and 2,000 open streams across 50
// organisations on a PostgreSQL database and server process of its own; prints which streams a
// write wakes, delivery latencies at 20 writes/s, and the queries a burst of 2,000 sign-ins costs.
//
//   npx tsx bench/stream-fanout.bench.ts
//
// - BENCH_STREAMS=500,2000 the stream counts;
// - BENCH_BASELINE_DIR=/work/wt-baseline-events also runs the server of that checkout (e.g. a
//   worktree of an earlier commit, with node_modules linked) and prints the ratios;
// - BENCH_SUSTAIN_SECONDS=20, BENCH_SIGN_INS=2000; BENCH_SCALE_SERVER the PostgreSQL server
//   (default postgres://postgres@127.0.0.1:5432, as its superuser).
import { withResults } from './results';
import { main } from './scale/streams';

await withResults('stream-fanout', main);
process.exit(0);
