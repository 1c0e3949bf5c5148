import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';
import pkg from './package.json' with { type: 'json' };
import { HASHED_ASSET } from './server/lib/hashedAsset.ts';
import { precompress } from './server/lib/precompressed.ts';

// The service worker's options (workbox generateSW). The precache list comes from the glob patterns alone: the favicon and the translations
// (public/) are in them already, and naming a file twice (e.g. in `includeAssets` too)
// gives workbox two revisions of one URL, so it refuses the whole list and nothing works
// offline (issue 10 §1; test/browser/offline-start.test.ts).
export const workbox: Partial<VitePWAOptions['workbox']> = {
  globPatterns: ['**/*.{js,mjs,css,html,svg,png,webp,woff2,json}'],
  // Only the files Vite names by their content may skip the revision; the plugin's default
  // skips all of assets/, which would keep a changed translation file (public/assets/i18n,
  // not hashed) stale in the precache forever.
  dontCacheBustURLsMatching: HASHED_ASSET,
  navigateFallback: '/index.html',
  navigateFallbackDenylist: [/^\/api\//],
  // No runtimeCaching: the service worker keeps the app's own files (the precache above) and
  // never an API answer, which holds client data (issue 25; test/unit/service-worker.test.ts).
  maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
};

const apiTarget = `http://localhost:${process.env.PORT ?? 8080}`;

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  plugins: [
    react(),
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeManifestIcons: false, // the icons are in the glob patterns of `workbox` above
      manifest: {
        id: '/',
        name: 'ICRS – services, jobs and clients',
        short_name: 'ICRS',
        description: 'ICRS staff app: service providers, jobs, clients and referrals, online and offline',
        lang: 'fr',
        // The top bar's colour; the dark theme's is set by the page (meta theme-color).
        theme_color: '#1e3a5f',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        // Made from public/favicon.svg by scripts/make-icons.ts.
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      workbox,
    }),
    precompress(),
  ],
  // RxDB's leader election cleans up on `unload` (the `unload` package), a deprecated event that
  // keeps pages out of the back/forward cache: the same API on `pagehide` (issue 27).
  resolve: { alias: [{ find: /^unload$/, replacement: fileURLToPath(new URL('./src/lib/util/unloadOnPagehide.ts', import.meta.url)) }] },
  server: { proxy: { '/api': { target: apiTarget, changeOrigin: false } } },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 4096 },
});
