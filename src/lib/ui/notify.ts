// Toasts with a title (product.md §8 names every toast by its title), shown the same way everywhere.
// Uses notistack's global enqueueSnackbar so the axios interceptor can toast outside React.
import { createElement, type ReactNode } from 'react';
import { closeSnackbar, enqueueSnackbar, type SnackbarKey, type VariantType } from 'notistack';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';
import { TOAST_DURATION_MS } from '../util';
import { t } from '../session';

function body(title: string, text: string): ReactNode {
  return createElement(
    'span',
    { 'data-testid': 'toast', style: { display: 'flex', flexDirection: 'column' } },
    createElement('strong', { 'data-testid': 'toast-title' }, title),
    text ? createElement('span', { 'data-testid': 'toast-text' }, text) : null,
  );
}

function show(variant: VariantType, title: string, text: string): void {
  enqueueSnackbar(body(title, text), { variant, autoHideDuration: TOAST_DURATION_MS });
}

export const notify = {
  error: (title: string, text = '') => show('error', title, text),
  success: (title: string, text = '') => show('success', title, text),
  info: (title: string, text = '') => show('info', title, text),
  warning: (title: string, text = '') => show('warning', title, text),
};

/**
 * A prompt that stays until its work is done rather than for a few seconds (docs/adr/0048-first-day-screens.md
 * "A prompt goes when its work is done"): shown once under `key` (a second one replaces nothing),
 * closed by `dismiss(key)` when what it asks for has happened.
 */
export function prompt(key: string, variant: VariantType, title: string, text = ''): void {
  closeSnackbar(key);
  enqueueSnackbar(body(title, text), { key, variant, persist: true, preventDuplicate: true, action: closeButton });
}

/** A prompt stays, so it can be closed by hand: on a phone it may lie over the page's buttons. */
function closeButton(key: SnackbarKey): ReactNode {
  return createElement(
    IconButton,
    { 'aria-label': t('common.close'), color: 'inherit', size: 'small', onClick: () => closeSnackbar(key) },
    createElement(CloseIcon, { fontSize: 'small' }),
  );
}

export function dismiss(key: string): void {
  closeSnackbar(key);
}
