// What the screens share to speak to the user (ADR-0049): toasts, themes, dates and numbers, and
// the React helpers that draw in turn or near the screen. Imports src/lib/session (the user's
// language and its translations, `t`) and src/lib/util only.
export { DAY_MAX, DAY_MIN, dayPattern, dayText, isDay, parseDay, withSlashes } from './dayText';
export { downloadBlob, downloadText, openBlob } from './download';
export { setFlash, takeFlash, type Flash } from './flash';
export { formatDate, formatDateTime, formatNumber } from './format';
export { useNearScreen } from './nearScreen';
export { dismiss, notify, prompt } from './notify';
export { preloadable } from './preloadable';
export { isQuotaError, notifyIfQuota, showQuotaFull, watchQuotaErrors } from './quota';
export { useServerChanges } from './serverChanges';
export { barColour, createAppTheme } from './theme';
export { afterUploads, setUploading, UPLOAD_LOCK, useUploading } from './uploadState';
export { useInTurn } from './useInTurn';
