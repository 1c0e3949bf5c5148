// The device vault (ADR-0020): client data kept on this device is the signed-in user's alone and
// sealed at rest. docs/security.md "Shared and lost devices". The vault sits above the store
// (ADR-0049): it gives the store its sealer and removes a user's store; the store imports no vault.
// Sign-out and the lock (auth.ts) are here too: both lock the vault first.
export {
  VaultLockedError,
  vaultSealer,
  dataKey,
  knowOpenings,
  isVaultOpen,
  openVaultUser,
  onVaultChange,
  unlockWithPassword,
  passwordRefused,
  waitBeforeUnlock,
  rewrapPassword,
  keyringOrganisations,
  mirrorIsOtherThan,
  setKeyringOrganisations,
  type PasswordUnlock,
} from './vault';
export { readSealedValue, writeSealedValue, clearSealedValues } from './sealedKv';
export {
  resumeVault,
  unlockedWithPassword,
  afterPasswordChange,
  forgetAtNextStart,
  forgetAsked,
  openVaultAtSignIn,
  lockEverywhere,
  settleLegacyToken,
  settleIdleSession,
  forgetMirror,
  removeMyData,
  checkDevice,
  type Resumed,
  type DeviceAnswer,
  type DeviceCheck,
} from './unlock';
export { readKeyring, keyringUsers, unlockWaitMs } from './keyring';
export { shareTokenWithOtherTabs } from './tabs';
export { forgetLegacyData } from './legacy';
export { storeActivity, storedActivity } from './activity';
export { sealExport, openExport, SEALED_EXPORT_FORMAT } from './exportSeal';
export { clearDraftFiles, keepDraftFiles, loadDraftFiles, type DraftFileInput } from './drafts';
export { lockNow, logout } from './auth';
