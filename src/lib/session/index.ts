// The signed-in session (ADR-0049): who is signed in, in which language (and its translations,
// `t`), theme and mode, what their role may do, and whether the app works online. Imports only
// src/lib/util.
export { buildIntl, loadMessages, setAppIntl, t, useSay, type AppIntl, type Messages, type Say } from './i18n';
export { appIsOnline, browserOnline, useNetworkOnline } from './network';
export { can, canOpen, isRole, mayChange, PERMISSIONS, ROLES, type Permission, type Role } from './permissions';
export {
  adoptLegacyToken,
  clearIdentity,
  clearSession,
  DEFAULT_LANG,
  endServerSession,
  getLang,
  getMode,
  getThemeName,
  getToken,
  getUser,
  isLang,
  isSignedIn,
  LANGS,
  saveSession,
  setLang,
  setMode,
  setThemeName,
  setToken,
  toSessionUser,
  type Lang,
  type Mode,
  type SessionUser,
  type ThemeName,
} from './session';
