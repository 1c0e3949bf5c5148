// Merges translation fragments (nested JSON, same shape as public/assets/i18n/{lang}.json) into
// the app's catalogues, refusing to overwrite an existing text with a different one.
// Usage: node scripts/merge-i18n.mjs <fragment-prefix> …   (reads <prefix>.fr.json and <prefix>.en.json)
import { readFileSync, writeFileSync } from 'node:fs';

function merge(target, source, path = '') {
  for (const [key, value] of Object.entries(source)) {
    const at = path ? `${path}.${key}` : key;
    if (value && typeof value === 'object') {
      if (target[key] !== undefined && typeof target[key] !== 'object') throw new Error(`${at}: text and group clash`);
      merge((target[key] ??= {}), value, at);
    } else if (target[key] !== undefined && target[key] !== value) {
      throw new Error(`${at}: already "${target[key]}", fragment says "${value}"`);
    } else {
      target[key] = value;
    }
  }
}

for (const lang of ['fr', 'en']) {
  const file = `public/assets/i18n/${lang}.json`;
  const catalogue = JSON.parse(readFileSync(file, 'utf8'));
  for (const prefix of process.argv.slice(2)) merge(catalogue, JSON.parse(readFileSync(`${prefix}.${lang}.json`, 'utf8')));
  writeFileSync(file, `${JSON.stringify(catalogue, null, 2)}\n`);
}
