// Toast colours that pass WCAG AA (4.5:1) in both themes. notistack's own are Material's main
// shades under white text: green, orange and blue fall to about 3:1. Toasts float above the
// page, so one set serves the light and the dark theme.
import { styled } from '@mui/material';
import { MaterialDesignContent } from 'notistack';

const ToastContent = styled(MaterialDesignContent)({
  '&.notistack-MuiContent-success': { backgroundColor: '#1b5e20', color: '#fff' },
  '&.notistack-MuiContent-error': { backgroundColor: '#b71c1c', color: '#fff' },
  '&.notistack-MuiContent-info': { backgroundColor: '#01579b', color: '#fff' },
  '&.notistack-MuiContent-warning': { backgroundColor: '#ffb74d', color: 'rgba(0, 0, 0, 0.87)' },
  '&.notistack-MuiContent-default': { backgroundColor: '#313131', color: '#fff' },
});

/** For `SnackbarProvider`'s `Components`: every variant drawn with the readable colours. */
export const TOAST_COMPONENTS = {
  default: ToastContent,
  success: ToastContent,
  error: ToastContent,
  info: ToastContent,
  warning: ToastContent,
};
