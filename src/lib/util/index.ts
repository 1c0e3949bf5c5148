// Helpers every layer of src/lib may use (ADR-0049): pure functions, the app's constants, and the
// window-wide signals and registries that let lower code reach the app without importing it.
// Imports nothing from src/lib. (unloadOnPagehide.ts is not exported: vite.config.ts aliases the
// `unload` package to it.)
export { open, openText, seal, sealText } from './aesGcm';
export { base64Blob, blobBase64, fromBase64, fromBase64Url, toBase64 } from './base64';
export {
  APP_VERSION,
  INSTALL_RETRY_FIRST_MS,
  LOGOUT_RELOAD_DELAY_MS,
  NARROW_MAX_WIDTH,
  PASSWORD_RESET_ROLES,
  PENDING_STATS_DELAY_MS,
  SW_REGISTER_TIMEOUT_MS,
  TOAST_DURATION_MS,
  UPDATE_CHECK_DELAY_MS,
  WIDE_MEDIA_QUERY,
} from './constants';
export {
  emitPendingStatsChanged,
  emitServerChange,
  emitServerListening,
  onPendingStatsChanged,
  onServerChange,
  onServerListening,
} from './events';
export { inPieces, whenIdle, yieldToBrowser } from './mainThread';
export { navigateTo, preloadScreen, registerNavigate, registerPreload, type NavigateFn, type PreloadFn } from './navigation';
export { CHANGE_PASSWORD_PATH } from './paths';
