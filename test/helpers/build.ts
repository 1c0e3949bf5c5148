// Changing a file of a served copy of the build, as a new release would.
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';

/** Appends `text` to `name` in the build folder `dir`, and drops the file's compressed copies
 * (server/lib/precompressed.ts): the server would otherwise go on sending the old content to
 * every browser that accepts brotli or gzip. */
export function appendToBuiltFile(dir: string, name: string, text: string): void {
  const file = path.join(dir, name);
  appendFileSync(file, text);
  for (const copy of [`${file}.br`, `${file}.gz`]) rmSync(copy, { force: true });
}
