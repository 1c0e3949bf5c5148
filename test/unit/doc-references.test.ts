// The code and the docs cite the product's rules by section of docs/product.md ("product.md §7",
// "§D6" for what the design note settled, or the anchor "docs/product.md#s7") and the decisions by
// their record ("ADR-0017", "docs/adr/0017-caseload.md "Pieces of 50 rows""), as ADR-0001 says.
// Those references must resolve inside the repository: every cited section, anchor, record and
// quoted entry exists, and nothing cites the specification or the design note, which live
// outside it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CODE_DIRS = ['src', 'server', 'schemas', 'test', 'scripts', 'bench', 'eslint'];
/** Where citations are also checked: the docs and the repository's own guides. */
const DOC_DIRS = ['docs'];
const DOC_FILES = ['README.md', 'CONTRIBUTING.md'];
const CODE_FILE = /\.(ts|tsx|js|mjs|md)$/;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else if (CODE_FILE.test(name)) out.push(full);
  }
  return out;
}

function read(dirs: string[]): { file: string; text: string }[] {
  return dirs
    .flatMap((d) => {
      try {
        return filesUnder(path.join(ROOT, d));
      } catch {
        return [];
      }
    })
    .map((file) => ({ file: path.relative(ROOT, file), text: readFileSync(file, 'utf8') }));
}

const sources = read(CODE_DIRS);
/** The docs, less the archive (a notebook kept as it was written). */
const docs = [
  ...read(DOC_DIRS).filter(({ file }) => !file.startsWith('docs/archive/')),
  ...DOC_FILES.map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') })),
];
const ADR_DIR = path.join(ROOT, 'docs/adr');
/** The decision records by number: "0017" → "0017-caseload.md". */
const records = new Map(
  readdirSync(ADR_DIR)
    .filter((name) => /^\d{4}-[a-z0-9-]+\.md$/.test(name))
    .map((name) => [name.slice(0, 4), name]),
);

/** A quoted text as it reads once comment markers and line breaks are taken out. */
function flatten(text: string): string {
  return text
    .replace(/\s*\n\s*(?:\/\/|\*|#)?\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The anchors a Markdown file offers: explicit `<a id>`s and its headings' slugs (GitHub's rule). */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const ids = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]);
  const slugs = [...text.matchAll(/^#+ (.+)$/gm)].map((m) =>
    m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  );
  return new Set([...ids, ...slugs]);
}

/** The section numbers docs/product.md has headings for: "## §2. …", "### §2.4 …", "## §D6 …". */
function productSections(): Set<string> {
  const text = readFileSync(path.join(ROOT, 'docs/product.md'), 'utf8');
  return new Set([...text.matchAll(/^#+ §(D?\d+(?:\.\d+)?)[. ]/gm)].map((m) => m[1]));
}

describe('references to the product rules', () => {
  it('name a section docs/product.md has', () => {
    const sections = productSections();
    expect(sections.size).toBeGreaterThan(10);
    const unresolved: string[] = [];
    for (const { file, text } of sources) {
      // "product.md §7", "product.md §2.4", "product.md §D6", and chains such as "§5, §7".
      for (const m of text.matchAll(/product\.md\s+((?:§D?\d+(?:\.\d+)?(?:\s*(?:,|and|\/)\s*)?)+)/g)) {
        for (const [, section] of m[1].matchAll(/§(D?\d+(?:\.\d+)?)/g)) {
          if (!sections.has(section) && !sections.has(section.split('.')[0])) unresolved.push(`${file}: §${section}`);
        }
      }
    }
    expect(unresolved).toEqual([]);
  });

  it('never point at the specification or the design note outside the repository', () => {
    const outside = sources
      .filter(({ file }) => file !== path.relative(ROOT, import.meta.filename))
      .flatMap(({ file, text }) => [...text.matchAll(/\b(?:[Ss]pec §\d|design\.md|icrs-spec\.md)/g)].map((m) => `${file}: ${m[0]}`));
    expect(outside).toEqual([]);
  });
});

describe('references to the decision records', () => {
  it('the records are numbered without gaps, and each has a status, a date and the tests that pin it', () => {
    const numbers = [...records.keys()].map(Number).sort((a, b) => a - b);
    expect(numbers.length).toBeGreaterThan(40);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const incomplete: string[] = [];
    for (const name of records.values()) {
      const text = readFileSync(path.join(ADR_DIR, name), 'utf8');
      const status = /^- Status: (accepted|superseded by ADR-(\d{4}))$/m.exec(text);
      if (!status || (status[2] && !records.has(status[2]))) incomplete.push(`${name}: status`);
      if (!/^- Date: \d{4}-\d{2}-\d{2}$/m.test(text)) incomplete.push(`${name}: date`);
      for (const section of ['Context', 'Decision', 'Consequences', 'Pinned by'])
        if (!text.includes(`\n## ${section}\n`)) incomplete.push(`${name}: ${section}`);
      const pins = [...(text.split('\n## Pinned by\n')[1] ?? '').matchAll(/`(test\/[^`]+)`/g)].map((m) => m[1]);
      if (pins.length === 0) incomplete.push(`${name}: no test pins it`);
      for (const pin of pins) if (!existsSync(path.join(ROOT, pin))) incomplete.push(`${name}: ${pin} does not exist`);
    }
    expect(incomplete).toEqual([]);
  });

  it('the index lists every record', () => {
    const index = readFileSync(path.join(ADR_DIR, 'README.md'), 'utf8');
    expect([...records.values()].filter((name) => !index.includes(`(${name})`))).toEqual([]);
  });

  it('every ADR-NNNN, docs/adr/… file and quoted entry cited in the code and the docs exists', () => {
    const unresolved: string[] = [];
    let cited = 0;
    for (const { file, text } of [...sources, ...docs]) {
      // "ADR-0017", and an optional quoted entry right after it: ADR-0002 "Throttling numbers".
      for (const m of text.matchAll(/\bADR-(\d{4})\b(?: "([^"\n]{3,160})")?/g)) {
        cited += 1;
        const name = records.get(m[1]);
        if (!name) unresolved.push(`${file}: ADR-${m[1]}`);
        else if (m[2] && !flatten(readFileSync(path.join(ADR_DIR, name), 'utf8')).includes(flatten(m[2])))
          unresolved.push(`${file}: ADR-${m[1]} "${m[2]}"`);
      }
      // "docs/adr/0017-caseload.md", or "adr/…" inside docs, and an optional quoted entry after it,
      // which may run over a comment's line break.
      for (const m of text.matchAll(
        /\badr\/(\d{4}-[a-z0-9-]+\.md)(?:[ \t]*(?:\n[ \t]*(?:\/\/|\*|#)?)?[ \t]*(?:,[ \t]*)?"([^"]{3,160})")?/g,
      )) {
        cited += 1;
        const target = path.join(ADR_DIR, m[1]);
        if (!existsSync(target)) {
          unresolved.push(`${file}: docs/adr/${m[1]}`);
          continue;
        }
        if (m[2] && !flatten(readFileSync(target, 'utf8')).includes(flatten(m[2]))) unresolved.push(`${file}: ${m[1]} "${m[2]}"`);
      }
    }
    expect(cited).toBeGreaterThan(50);
    expect(unresolved).toEqual([]);
  });

  it('never cite a tracker issue: the code, the tests, the benches and the records cite the rule instead', () => {
    // "issue 26 §1", "Issue 10:", "issues 4 and 16", "issue #12"; the history is in git log.
    const self = path.relative(ROOT, import.meta.filename);
    const cited = [...sources, ...docs.filter(({ file }) => file.startsWith('docs/adr/') || file.startsWith('docs/rules/'))]
      .filter(({ file }) => file !== self && !file.startsWith('eslint/'))
      .flatMap(({ file, text }) => [...text.matchAll(/\bissues? ?#?\d+/gi)].map((m) => `${file}: ${m[0]}`));
    expect(cited).toEqual([]);
  });

  it('every anchor of docs/product.md cited exists', () => {
    const anchors = anchorsOf('docs/product.md');
    expect(anchors.has('s6-5-1')).toBe(true);
    const unresolved: string[] = [];
    for (const { file, text } of [...sources, ...docs])
      for (const m of text.matchAll(/product\.md#([\w-]+)/g)) if (!anchors.has(m[1])) unresolved.push(`${file}: product.md#${m[1]}`);
    expect(unresolved).toEqual([]);
  });

  it('every relative link of the records, the index and docs/decisions.md leads to a file', () => {
    const broken: string[] = [];
    for (const { file, text } of docs.filter((d) => d.file.startsWith('docs/adr/') || d.file === 'docs/decisions.md'))
      for (const m of text.matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g))
        if (!existsSync(path.resolve(ROOT, path.dirname(file), m[1]))) broken.push(`${file}: ${m[1]}`);
    expect(broken).toEqual([]);
  });
});
