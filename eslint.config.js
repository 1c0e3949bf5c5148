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
//   src/lib/<layer>  <- the layers below, through their index.ts (layerZones, ADR-0049)
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

// src/lib in layers (ADR-0049), lowest first: each imports only those before it, and from outside
// a layer only its index.ts (its public surface). A screen (src/features, src/components,
// src/app) reads data through src/lib/data and never imports src/lib/store; it reaches
// src/lib/sync through its index (starting an upload or the replication).
const LAYERS = ['util', 'session', 'store', 'vault', 'ui', 'http', 'data', 'sync'];
const SCREENS = ['./src/features', './src/components', './src/app'];
const libDirs = readdirSync(new URL('./src/lib', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const layerZones = [
  ...LAYERS.slice(0, -1).map((layer, index) => ({
    target: `./src/lib/${layer}`,
    from: LAYERS.slice(index + 1).map((above) => `./src/lib/${above}`),
    message: `src/lib/${layer} imports only the layers below it (${LAYERS.slice(0, index).join(', ') || 'none'}): src/lib's layers, lowest first, are ${LAYERS.join(', ')} (ADR-0049).`,
  })),
  ...libDirs.map((dir) => ({
    target: ['./src/{app,components,features}/**/*', './src/*.{ts,tsx}', `./src/lib/!(${dir})/**/*`],
    from: `./src/lib/${dir}`,
    // The data layer has a second door, start.ts: what the app's start needs without the layer's code.
    except: dir === 'data' ? ['./index.ts', './start.ts'] : ['./index.ts'],
    message: `Outside src/lib/${dir}, import only its index.ts, its public surface (ADR-0049): export what is needed there.`,
  })),
  {
    target: SCREENS,
    from: './src/lib/store',
    message: "A screen reads data through src/lib/data (its hooks, and the store's names it passes on), never src/lib/store (ADR-0049).",
  },
  {
    target: './src/lib',
    from: './src/components',
    message: 'src/lib is below the screens: it never imports src/components (ADR-0049).',
  },
];

const boundaries = {
  zones: [
    ...featureZones,
    ...layerZones,
    {
      target: ['./src/lib', './src/components'],
      from: './src/features',
      message: 'src/lib and src/components are shared by the features and never import them.',
    },
    {
      target: ['./src/lib', './src/components', './src/features'],
      from: './src/app',
      message: 'Only the app imports the app (see src/lib/util/navigation.ts for the way back).',
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
  {
    // The store is no React (ADR-0049): its hooks and provider are the data layer's.
    files: ['src/lib/store/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^react(-dom)?(/.*)?$',
              message: 'src/lib/store imports no React: hooks and providers over the store belong to src/lib/data (ADR-0049).',
            },
          ],
        },
      ],
    },
  },
  {
    // A screen translates one way: `const say = useSay()` from src/lib/session (i18n.ts), never
    // react-intl's formatMessage itself (useIntl stays for formatNumber, formatDate, the locale).
    files: ['src/features/**/*.{ts,tsx}', 'src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'formatMessage',
          message: "Translate with `const say = useSay()` from src/lib/session, then `say('id', values)`.",
        },
      ],
    },
  },
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: { ...globals.node } } },
);
