/// <reference types="vite/client" />
/// <reference types="vite-plugin-pwa/react" />

/** Application version, injected by the `define` of vite.config.ts from package.json. */
declare const __APP_VERSION__: string;
