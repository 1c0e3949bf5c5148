// The code cites the product's rules by section of docs/product.md ("product.md §7", "§D6" for
// what the design note settled). Those references must resolve inside the repository: every
// cited section is a heading of docs/product.md, and nothing cites the specification or the
// design note, which live outside it (issue 30 §5).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CODE_DIRS = ['src', 'server', 'schemas', 'test', 'scripts', 'bench', 'eslint'];
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

const sources = CODE_DIRS.flatMap((d) => {
  try {
    return filesUnder(path.join(ROOT, d));
  } catch {
    return [];
  }
}).map((file) => ({ file: path.relative(ROOT, file), text: readFileSync(file, 'utf8') }));

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
