// The real Prometheus pieces for the tests (docs/operations.md): `promtool` lints a scrape and the
// alert rules, and a `prometheus` process scrapes a test server with deploy/prometheus.yml.
//
// What stays hand-written, and why: `readSamples` reads the values of one scrape. The tests
// compare a counter just before and just after an action (a 404, an upload, a stream opened);
// asking a Prometheus server instead would take a scrape interval per step and could not tell
// which scrape saw the action. Its format is not checked here: `promtool check metrics` does that,
// on a real scrape, in test/api/metrics.test.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a scrape (`name{labels} value` lines), comments left out. */
export function readSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key = '', raw = ''] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key] = raw.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples `name` whose labels include `labels` (0 when there is none). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** The path of Debian's `promtool` or `prometheus`, or undefined when it is not installed. */
export function findTool(name: 'promtool' | 'prometheus'): string | undefined {
  return [`/usr/bin/${name}`, `/usr/local/bin/${name}`].find((path) => existsSync(path));
}

/** Runs promtool with `input` on stdin (or none); its exit code and everything it printed. */
export function promtool(args: string[], input?: string): { status: number | null; output: string } {
  const tool = findTool('promtool');
  if (!tool) throw new Error('promtool is not installed (apt-get install prometheus)');
  const run = spawnSync(tool, args, { input, encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}` };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface PrometheusServer {
  url: string;
  /** The config file it runs, deploy/prometheus.yml with the test's target, token and interval. */
  config: string;
  /** What it printed, for a failure's message. */
  log(): string;
  stop(): Promise<void>;
}

/** deploy/prometheus.yml as the README gives it, with only the token, the targets and the
 * intervals replaced (each replacement must find its text: the file cannot drift unseen). */
export function testConfig(deployed: string, target: string, token: string): string {
  const replacements: Array<[string | RegExp, string]> = [
    ['credentials: <METRICS_TOKEN>', `credentials: ${token}`],
    [/targets: \[[^\]]*\]/, `targets: ['${target}']`],
    [/scrape_interval: \S+/, 'scrape_interval: 1s'],
    [/evaluation_interval: \S+/, 'evaluation_interval: 1s'],
  ];
  return replacements.reduce((text, [from, to]) => {
    if (!(typeof from === 'string' ? text.includes(from) : from.test(text)))
      throw new Error(`deploy/prometheus.yml has no ${String(from)}`);
    return text.replace(from, to);
  }, deployed);
}

/** A real Prometheus on a free port of 127.0.0.1, with its data in a temp folder that goes with it. */
export async function startPrometheus(deployDir: string, target: string, token: string): Promise<PrometheusServer> {
  const tool = findTool('prometheus');
  if (!tool) throw new Error('prometheus is not installed (apt-get install prometheus)');
  const dir = await mkdtemp(join(tmpdir(), 'icrs-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  await writeFile(config, testConfig(await readFile(join(deployDir, 'prometheus.yml'), 'utf8'), target, token));
  await writeFile(join(dir, 'icrs-alerts.yml'), await readFile(join(deployDir, 'icrs-alerts.yml')));
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(
    tool,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited: ${output}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prometheus not ready after 20 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, config, log: () => output, stop };
}
