#!/usr/bin/env node
// `npm run hooks`: installs scripts/pre-commit.mjs as this clone's pre-commit hook (optional;
// no dependency). A hook already there is kept unless it is ours.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const hooks = execFileSync('git', ['rev-parse', '--git-path', 'hooks'], { encoding: 'utf8' }).trim();
const target = path.join(hooks, 'pre-commit');
const MARK = '# icrs pre-commit';
const hook = `#!/bin/sh\n${MARK}: scripts/pre-commit.mjs (npm run hooks)\nexec node scripts/pre-commit.mjs\n`;

if (existsSync(target) && !readFileSync(target, 'utf8').includes(MARK)) {
  console.error(`${target} exists and is not ours: left as it is. Remove it and run npm run hooks again.`);
  process.exit(1);
}
writeFileSync(target, hook);
chmodSync(target, 0o755);
console.log(`pre-commit hook installed: ${target} (prettier and eslint on the staged files; skip once with --no-verify)`);
