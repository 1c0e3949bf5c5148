import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';
import noImportCycle from './eslint/no-import-cycle.js';

// The layering, checked on every lint (so by `npm test`): imports flow one way.
//   schemas/         <- imports nothing from src/ or server/ (both derive from it)
//   src/lib, src/components <- never import src/features or src/app
//   src/features/X   <- may import another feature only through its index.ts, or its paths.ts
//                       (its addresses: plain strings and functions, no screen comes with them)
//   src/app          <- the composition root: may reach into a feature for code splitting
// Paths are compared after resolving each import, so `../offline/uploadState` and
// `../../features/offline/uploadState` are the same file to the rule.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const featureZones = features.map((feature) => ({
  target: `./src/features/${feature}`,
  from: './src/features',
  except: [
    `./${feature}`,
    ...features.filter((other) => other !== feature).flatMap((other) => [`./${other}/index.ts`, `./${other}/paths.ts`]),
  ],
  message: 'A feature imports another feature only through its index.ts (or its paths.ts): export what is needed there.',
}));

const boundaries = {
  zones: [
    ...featureZones,
    {
      target: ['./src/lib', './src/components'],
      from: './src/features',
      message: 'src/lib and src/components are shared by the features and never import them.',
    },
    {
      target: ['./src/lib', './src/components', './src/features'],
      from: './src/app',
      message: 'Only the app imports the app (see src/lib/navigation.ts for the way back).',
    },
    {
      target: './schemas',
      from: ['./src', './server'],
      message: 'schemas/ declares the entities that src/ and server/ derive from: it imports neither.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'coverage', 'dev-dist'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX, local: { rules: { 'no-import-cycle': noImportCycle } } },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': ['error', boundaries],
      // Type-only imports count too (import-x/no-cycle skips them): see eslint/no-import-cycle.js.
      'local/no-import-cycle': 'error',
    },
  },
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: { ...globals.node } } },
);
