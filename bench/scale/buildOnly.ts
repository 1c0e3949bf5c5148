// Builds the scale benchmark's databases alone: npx tsx bench/scale/buildOnly.ts 10000 100000 1000000
import { ensureScaleDatabase } from './build';

for (const size of process.argv.slice(2).map(Number)) await ensureScaleDatabase(size);
