#!/usr/bin/env node
// The optional pre-commit hook (`npm run hooks` installs it): Prettier and ESLint on the staged
// files only, the same checks as landing's, so a commit that would fail them stops here. It
// checks the files as they are in the working tree; `git commit --no-verify` skips it.
import { execFileSync, spawnSync } from 'node:child_process';

const staged = execFileSync('git', ['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z'], { encoding: 'utf8' })
  .split('\0')
  .filter(Boolean);

if (staged.length === 0) process.exit(0);

const run = (tool, args) => spawnSync('npx', ['--no-install', tool, ...args], { stdio: 'inherit' }).status === 0;

// Prettier skips what .prettierignore lists (Markdown, public/); unknown file types are ignored.
const formatted = run('prettier', ['--check', '--ignore-unknown', ...staged]);
const code = staged.filter((file) => /\.(ts|tsx|js|mjs)$/.test(file));
const linted = code.length === 0 || run('eslint', ['--no-warn-ignored', ...code]);

if (!formatted || !linted) {
  console.error("\npre-commit: fix the files above (npm run format writes Prettier's layout), or commit with --no-verify.");
  process.exit(1);
}
