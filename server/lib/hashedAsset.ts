// The files of the build that Vite names by their content (`index-DkNuu_Fp.js`): a new content
// gets a new name, so the server lets browsers keep them for a year (server/plugins/spa.ts)
// and the service worker precaches them without a revision (vite.config.ts). Everything else
// (index.html, sw.js, the translations of public/) keeps its name when it changes.
export const HASHED_ASSET = /-[A-Za-z0-9_-]{8,}\.(js|mjs|css|woff2?)$/;
