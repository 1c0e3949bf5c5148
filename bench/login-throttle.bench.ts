// Sign-in throttling (ADR-0002 "Throttling numbers"): how many wrong passwords in a row one user name gets before 429, and what
// the log holds for a change-stream request. `npx tsx bench/login-throttle.bench.ts` (PGlite in
// memory). BENCH_TRIES (default 250).
import { startTestServer } from '../test/helpers/server';
import { startResults } from './results';

const TRIES = Number(process.env.BENCH_TRIES ?? 250);
const log: string[] = [];
const results = startResults('login-throttle');
const t = await startTestServer({ config: { logLevel: 'info' }, logStream: { write: (line) => log.push(line) } });
try {
  await t.createUser({ userName: 'bench-user', password: 'bench-password-1', role: 4, location: 0 });
  const token = await t.login(t.admin.userName, t.admin.password);
  const statuses = new Map<number, number>();
  let firstRefusal: number | undefined;
  for (let i = 1; i <= TRIES; i++) {
    const { status } = await t.api('POST', '/login', { body: { userName: 'bench-user', password: `wrong-${i}` } });
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status === 429 && firstRefusal === undefined) firstRefusal = i;
  }
  console.log(
    `${TRIES} wrong passwords for one user name: ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')}; first 429 at try ${firstRefusal ?? 'never'}`,
  );
  console.log(`login_throttle.first_429_at_try: ${firstRefusal ?? 'never'}`);
  const stream = await fetch(await t.streamUrl(token));
  await stream.body?.cancel();
  const lines = log.filter((line) => line.includes('/api/sync/stream'));
  console.log(`stream request log lines: ${lines.length}, containing the token: ${lines.filter((l) => l.includes(token)).length}`);
  console.log(`login_throttle.stream_log_lines_with_token: ${lines.filter((l) => l.includes(token)).length}`);
  console.log(`logged URL: ${JSON.parse(lines[0] ?? '{}').req?.url}`);
} finally {
  await t.close();
}
results.write();
