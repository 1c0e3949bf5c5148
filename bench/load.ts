// Load on an HTTP route with autocannon, in a process of its own so that it does not share the
// server's thread (bench/api.bench.ts, bench/metrics.bench.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Load {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A fixed JSON body, or 'provider' for a new provider per request. */
  body?: unknown;
  /** Paths picked in turn (one per request), for reads by id. */
  paths?: string[];
}

export interface Outcome {
  rps: number;
  p99: number;
  bad: number;
}

// The load generator, in a process of its own: its data in argv, its outcome as JSON on stdout.
const GENERATOR = `
const { randomUUID } = require('node:crypto');
const autocannon = require('autocannon');
const { load, seconds, connections } = JSON.parse(process.argv[1]);
let turn = 0;
const request = { method: load.method, headers: load.headers };
if (load.body !== undefined && load.body !== 'provider') request.body = JSON.stringify(load.body);
request.setupRequest = (req) => {
  const next = { ...req };
  if (load.paths) next.path = load.paths[turn++ % load.paths.length];
  if (load.body === 'provider') next.body = JSON.stringify({ sp_Id: randomUUID(), sp_Name: 'Bench provider ' + turn++, sp_type: 2, territory: 3 });
  return next;
};
autocannon({ url: load.url, connections, duration: seconds, requests: [request] }, (error, result) => {
  if (error) throw error;
  console.log(JSON.stringify({ rps: result.requests.average, p99: result.latency.p99, bad: result.non2xx + result.errors + result.timeouts }));
});
`;

export async function hammer(load: Load, { seconds, connections }: { seconds: number; connections: number }): Promise<Outcome> {
  const { stdout } = await run(process.execPath, ['-e', GENERATOR, JSON.stringify({ load, seconds, connections })]);
  return JSON.parse(stdout) as Outcome;
}
