// Error answers are told apart by their `code` (schemas/errorCodes.ts), never by their text
// (docs/adr/0039-code-layout.md "Error codes, not texts"): the server's texts are translated, and a
// reworded message must not change what the app does.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, VALIDATION_CODE } from '../../schemas/errorCodes';
import { translate } from '../../server/lib/messages';

const ROOT = path.resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else if (/\.(ts|tsx)$/.test(name)) out.push(full);
  }
  return out;
}

const sources = ['src', 'server']
  .flatMap((dir) => filesUnder(path.join(ROOT, dir)))
  .map((file) => ({ file: path.relative(ROOT, file), lines: readFileSync(file, 'utf8').split('\n') }));

/** A message's text compared with a literal or a named constant, looked up in a list, or
 * matched by a pattern: `x.message === 'conflict'`, `'duplicate entry' === message`,
 * `TEXTS.includes(message)`, `PATTERN.test(error.message)`. `typeof x.message === 'string'`
 * reads the type, not the text. */
const MESSAGE_TEXT_CHECKS = [
  /(?<!typeof\s+[\w.?[\]]*)\bmessage\s*[!=]==?\s*(['"`]|[A-Z][A-Z0-9_]+\b)/,
  /(['"`]|\b[A-Z][A-Z0-9_]+)\s*[!=]==?\s*[\w.?[\]]*\bmessage\b/,
  /\.includes\(\s*[\w.?[\]]*\bmessage\s*\)/,
  /\.(test|exec|match)\(\s*[\w.?[\]]*\bmessage\s*\)/,
  /isAnswer\([^)]*,\s*'[^'.]*'\s*\)/,
];

/** Texts with no code to read instead, each for its reason. */
const ALLOWED: Record<string, string> = {
  // The browser's storage errors: some engines name a full quota only in the text.
  'src/lib/ui/quota.ts': 'QUOTA_TEXT',
  // The database drivers' connection errors (pg, PGlite), not the server's answers.
  'server/db/index.ts': 'UNAVAILABLE_MESSAGES',
  // The age library tells a wrong key only in its text (a backup read with another key).
  'server/ops/encryption.ts': 'no identity matched',
  // axios names a timeout or a lost network only in its text; the report turns those into
  // the user's language (display only), and shows the engine's own `conflict` word.
  'src/features/offline/uploadRun.ts': 'TIMED_OUT|NO_ANSWER|SERVER_TROUBLE|CONFLICT|Request failed',
};

describe('error answers', () => {
  it('are never told apart by their text in src/ or server/', () => {
    const found: string[] = [];
    for (const { file, lines } of sources) {
      lines.forEach((line, i) => {
        if (line.trim().startsWith('//') || line.trim().startsWith('*')) return;
        if (!MESSAGE_TEXT_CHECKS.some((check) => check.test(line))) return;
        const allowed = ALLOWED[file];
        if (allowed && new RegExp(allowed).test(line)) return;
        found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found, "decide on the answer's `code` (schemas/errorCodes.ts), not its message").toEqual([]);
  });

  it('the scan finds a comparison of a message with a text', () => {
    const check = (line: string) => MESSAGE_TEXT_CHECKS.some((c) => c.test(line));
    expect(check("  return f.status === 409 && f.message === 'duplicate entry';")).toBe(true);
    expect(check("if (isAnswer(error, 409, 'conflict')) throw x;")).toBe(true);
    expect(check('} else if (signedIn && SESSION_ENDING_MESSAGES.includes(message)) {')).toBe(true);
    expect(check("if (data && typeof data.message === 'string' && data.message) return data.message;")).toBe(false);
    expect(check("if (isAnswer(error, 409, 'http.duplicate')) throw x;")).toBe(false);
  });
});

/** The codes the server's sources send: HttpError, fieldError, the framework's errors, and the
 * refusals held in typed tables and variables before they are thrown. */
function codesSent(): Map<string, string> {
  const sent = new Map<string, string>();
  const patterns = [
    /new HttpError\(\s*\d{3},\s*'([\w.]+)'/g,
    /fieldError\(\s*[^,]+,\s*[^,]+,\s*'([\w.]+)'/g,
    /keyed\(\s*request,\s*\d{3},\s*'([\w.]+)'/g,
    /\[\d{3},\s*'([\w.]+)'\]/g,
    /(?:refusal|failure): (?:KeyedCode = )?'([\w.]+)'/g,
    /^\s+\w+: '((?:users|auth)\.[\w]+)',$/gm,
    /answer\(\s*\d{3},\s*([A-Z_]+),/g,
  ];
  for (const { file, lines } of sources.filter((s) => s.file.startsWith('server/'))) {
    const text = lines.join('\n');
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) sent.set(match[1] as string, file);
  }
  if (sent.delete('VALIDATION_CODE')) sent.set(VALIDATION_CODE, 'server/lib/errors.ts');
  return sent;
}

describe('the error codes', () => {
  it('every code the server sends is in schemas/errorCodes.ts', () => {
    const sent = codesSent();
    expect(sent.size).toBeGreaterThan(40);
    const known = new Set<string>(ERROR_CODES);
    const unknown = [...sent].filter(([code]) => !known.has(code)).map(([code, file]) => `${code} (${file})`);
    expect(unknown).toEqual([]);
  });

  it('each has its text in French and English, told apart by the code only', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) {
      if (code === VALIDATION_CODE) continue;
      for (const lang of ['fr', 'en'] as const) expect(translate(lang, code), `${lang} ${code}`).toMatch(/\S/);
    }
  });
});
