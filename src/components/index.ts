export { PreferencesProvider, usePreferences, type Preferences } from './PreferencesProvider';
export { Page } from './Page';
export { ConfirmDialog } from './ConfirmDialog';
export { InfoDialog } from './InfoDialog';
export { FullPageSpinner } from './FullPageSpinner';
export { LanguageSelect } from './LanguageSelect';
export { useSessionUser } from './useSessionUser';
export { DeleteDialog } from './DeleteDialog';
export { AmberChip, NotUploadedChip } from './AmberChip';
