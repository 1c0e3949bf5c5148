// Public surface: the help pages.
export { HelpIndex, HelpPage } from './HelpPage';
