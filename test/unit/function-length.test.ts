// Controllers apart from views (docs/adr, "Controllers apart from views"): no function in a
// feature's source runs over 120 lines. A screen that grows past it splits its state and
// effects into a hook, or its parts into components.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve('src/features');
const MAX_LINES = 120;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

interface Found {
  where: string;
  lines: number;
}

/** Every function of `file` (declarations, arrows, expressions, methods) with its length in lines. */
function functionLengths(file: string, text: string): Found[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Found[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ where: `${path.relative(process.cwd(), file)}:${first + 1}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the source of src/features', () => {
  it(`has no function over ${MAX_LINES} lines`, () => {
    const long = sourceFiles(ROOT)
      .flatMap((file) => functionLengths(file, readFileSync(file, 'utf8')))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.where} (${f.lines} lines)`);
    expect(long).toEqual([]);
  });

  it('measures a function from its first line to its last', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const [outer] = functionLengths('long.ts', `export function long() {\n${body}\n}\n`);
    expect(outer?.lines).toBe(MAX_LINES + 2);
  });
});
