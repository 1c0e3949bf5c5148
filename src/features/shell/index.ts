// Public surface of the shell: the page frame with top bar, sidebar, banner and footer.
export { preloadSignedInShell, Shell } from './Shell';
