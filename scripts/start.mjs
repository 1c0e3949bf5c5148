// `npm start`: builds the front end when the build is missing or older than its sources,
// then runs the server (TypeScript through tsx) in this same process. package.json starts it
// with `exec`, so npm's shell does not stay between npm and this process: npm forwards SIGINT
// and SIGTERM to its child, and a shell in between would swallow them and leave the server
// running after npm is gone. STATIC_DIR naming another folder serves that build as it is.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['src', 'public', 'schemas', 'index.html', 'vite.config.ts', 'package.json'];

function newestChange(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), 0);
}

const ownBuild = path.join(root, 'dist');
const built = path.join(ownBuild, 'index.html');
const servesOwnBuild = !process.env.STATIC_DIR || path.resolve(root, process.env.STATIC_DIR) === ownBuild;
const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map((s) => newestChange(path.join(root, s))));
if (servesOwnBuild && (builtAt < sourcesAt || process.env.FORCE_BUILD === '1')) {
  console.log(builtAt ? 'The front end changed since the last build: building it…' : 'Building the front end…');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

process.chdir(root);
const { register } = await import('tsx/esm/api');
register();
await import('../server/main.ts');
