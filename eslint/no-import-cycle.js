// ESLint rule `local/no-import-cycle`: no file imports a file that imports it back, however far
// round. Every kind of import counts: `import type` and `import('./x').T` as much as values and
// `await import()`. (import-x's no-cycle skips type-only imports, and a type loop is still two
// files that cannot be read, moved or split apart.)
//
// The graph is read from disk with TypeScript's import scanner, relative specifiers only (the
// packages cannot import our files back), each file's list kept while its mtime holds.
import { statSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];
const edges = new Map(); // file -> { mtimeMs, imports: string[] }

function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file a relative specifier names, or null (a package, an alias, an asset). */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier.replace(/\?.*$/, ''));
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => path.join(base, 'index' + ext))];
  const found = candidates.find((candidate) => EXTENSIONS.includes(path.extname(candidate)) && isFile(candidate));
  return found ?? null;
}

function importsOf(file) {
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = edges.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.imports;
  const scanned = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
  const imports = [...new Set(scanned.map((entry) => resolveImport(file, entry.fileName)).filter(Boolean))];
  edges.set(file, { mtimeMs, imports });
  return imports;
}

/** A path of files from `start` back to `target` (both included), or null. */
function pathBack(start, target) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === target) {
      const route = [];
      for (let step = file; step !== null; step = cameFrom.get(step)) route.unshift(step);
      return route;
    }
    for (const next of importsOf(file)) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle: {{route}}. Move what both sides need into a third file that imports neither.' },
  },
  create(context) {
    const filename = context.physicalFilename;
    if (!path.isAbsolute(filename)) return {};
    const cwd = context.cwd;
    const check = (node) => {
      if (!node || typeof node.value !== 'string') return;
      const target = resolveImport(filename, node.value);
      if (!target || target === filename) return;
      const route = pathBack(target, filename);
      if (route) {
        const shown = [filename, ...route].map((file) => path.relative(cwd, file));
        context.report({ node, messageId: 'cycle', data: { route: shown.join(' → ') } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.source),
      TSExternalModuleReference: (node) => check(node.expression),
    };
  },
};
