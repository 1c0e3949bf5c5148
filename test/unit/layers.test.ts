// The layers of src/lib (docs/adr/0049-layers-of-src-lib.md): the lint refuses an import against
// their direction, a screen importing the store, a deep import into a layer from outside it, and
// React in the store. Each probe is linted as if it were a file at that place, with the
// repository's own eslint.config.js; nothing is written to disk.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });
const LAYER_RULES = ['import-x/no-restricted-paths', 'no-restricted-imports'];

/** The layering rules' messages for `code` linted as the file `file`. */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId !== null && LAYER_RULES.includes(m.ruleId)).map((m) => m.message);
}

describe('the layers of src/lib', () => {
  it('refuses the store importing the data layer or sync', async () => {
    const data = await refusals(
      'src/lib/store/probe.ts',
      "import { createDataLayer } from '../data';\nexport const probe = createDataLayer;\n",
    );
    expect(data).toEqual([expect.stringContaining('src/lib/store imports only the layers below it')]);
    const sync = await refusals('src/lib/store/probe.ts', "import { uploadAll } from '../sync';\nexport const probe = uploadAll;\n");
    expect(sync).toEqual([expect.stringContaining('src/lib/store imports only the layers below it')]);
  });

  it('refuses the data layer importing sync, and lets it import the store', async () => {
    const sync = await refusals('src/lib/data/probe.ts', "import { uploadAll } from '../sync';\nexport const probe = uploadAll;\n");
    expect(sync).toEqual([expect.stringContaining('src/lib/data imports only the layers below it')]);
    expect(
      await refusals('src/lib/data/probe.ts', "import { collectionOf } from '../store';\nexport const probe = collectionOf;\n"),
    ).toEqual([]);
  });

  it('refuses React in the store', async () => {
    const react = await refusals('src/lib/store/probe.ts', "import { useState } from 'react';\nexport const probe = useState;\n");
    expect(react).toEqual([expect.stringContaining('src/lib/store imports no React')]);
  });

  it('refuses a screen importing the store, and lets it read the data layer and start sync through their index', async () => {
    const store = await refusals(
      'src/features/jobs/probe.ts',
      "import { collectionOf } from '../../lib/store';\nexport const probe = collectionOf;\n",
    );
    expect(store).toEqual([expect.stringContaining('A screen reads data through src/lib/data')]);
    const fine =
      "import { useDb } from '../../lib/data';\nimport { uploadAll } from '../../lib/sync';\nexport const probe = [useDb, uploadAll];\n";
    expect(await refusals('src/features/jobs/probe.ts', fine)).toEqual([]);
  });

  it('refuses a deep import into a layer from outside it, and allows relative imports inside', async () => {
    const deep = await refusals(
      'src/features/jobs/probe.ts',
      "import { createDataLayer } from '../../lib/data/datalayer';\nexport const probe = createDataLayer;\n",
    );
    expect(deep).toEqual([expect.stringContaining('Outside src/lib/data, import only its index.ts')]);
    const fromLayer = await refusals(
      'src/lib/sync/probe.ts',
      "import { syncedDoc } from '../data/docs';\nexport const probe = syncedDoc;\n",
    );
    expect(fromLayer).toEqual([expect.stringContaining('Outside src/lib/data, import only its index.ts')]);
    expect(
      await refusals('src/lib/data/probe.ts', "import { createDataLayer } from './datalayer';\nexport const probe = createDataLayer;\n"),
    ).toEqual([]);
  });
});
