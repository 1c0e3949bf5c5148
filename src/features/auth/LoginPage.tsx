import { useState, type FormEvent } from 'react';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { useIntl } from 'react-intl';
import { Box, Button, CircularProgress, IconButton, InputAdornment, Link, Paper, TextField, Typography } from '@mui/material';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { LanguageSelect } from '../../components';
import { messageOf } from '../../lib/http';
import { notify, setFlash } from '../../lib/ui';
import { isSignedIn, useSay } from '../../lib/session';
import { signIn, signInPausedMinutes } from './authApi';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { safeReturnUrl } from './returnUrl';

interface Touched {
  userName: boolean;
  password: boolean;
}

function useLoginForm() {
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState<Touched>({ userName: false, password: false });
  const errors = { userName: userName.trim() === '', password: password === '' };
  const touch = (field: keyof Touched) => setTouched((prev) => ({ ...prev, [field]: true }));
  return { userName, setUserName, password, setPassword, touched, touch, errors, valid: !errors.userName && !errors.password };
}

export function LoginPage() {
  const intl = useIntl();
  const [params] = useSearchParams();
  const returnUrl = safeReturnUrl(params.get('returnUrl'));
  const form = useLoginForm();
  const [loading, setLoading] = useState(false);
  const [pageError, setPageError] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  const say = useSay();

  if (isSignedIn()) return <Navigate to={returnUrl} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!form.valid || loading) return;
    setLoading(true);
    setPageError('');
    try {
      await signIn(form.userName.trim(), form.password);
      setFlash('loggedIn'); // toast after the full load below (product.md §4: the page reloads)
      window.location.assign(returnUrl);
    } catch (error) {
      const minutes = signInPausedMinutes(error);
      const message = minutes === undefined ? messageOf(error) : say('auth.tooManyAttempts', { minutes });
      setPageError(message);
      notify.error(say('auth.loginErrorTitle'), message);
      setLoading(false);
    }
  }

  const userNameError = form.touched.userName && form.errors.userName;
  const passwordError = form.touched.password && form.errors.password;

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: { xs: 2, sm: 6 } }}>
      <Paper component="form" onSubmit={submit} noValidate sx={{ p: { xs: 2, sm: 4 }, width: '100%', maxWidth: 420 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
          <LockOutlinedIcon color="primary" aria-hidden />
          <Typography component="h1" variant="h5" sx={{ flexGrow: 1 }}>
            {say('auth.title')}
          </Typography>
          <LanguageSelect />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {say('auth.subtitle')}
        </Typography>
        <TextField
          label={say('auth.userName')}
          name="userName"
          autoComplete="username"
          value={form.userName}
          onChange={(e) => form.setUserName(e.target.value)}
          onBlur={() => form.touch('userName')}
          error={userNameError}
          helperText={userNameError ? say('auth.userNameRequired') : ' '}
          required
          fullWidth
          autoFocus
          margin="dense"
        />
        <TextField
          label={say('auth.password')}
          name="password"
          type={showPassword ? 'text' : 'password'}
          autoComplete="current-password"
          value={form.password}
          onChange={(e) => form.setPassword(e.target.value)}
          onBlur={() => form.touch('password')}
          error={passwordError}
          helperText={passwordError ? say('auth.passwordRequired') : ' '}
          required
          fullWidth
          margin="dense"
          slotProps={{
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={say(showPassword ? 'auth.hidePassword' : 'auth.showPassword')}
                    onClick={() => setShowPassword((v) => !v)}
                    edge="end"
                  >
                    {showPassword ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ),
            },
          }}
        />
        {pageError && (
          <Typography role="alert" color="error" data-testid="login-error" sx={{ mt: 1 }}>
            {pageError}
          </Typography>
        )}
        <Button
          type="submit"
          variant="contained"
          fullWidth
          disabled={!form.valid || loading}
          sx={{ mt: 2 }}
          startIcon={loading ? <CircularProgress size={18} color="inherit" aria-label={say('auth.loading')} /> : null}
        >
          {say('auth.login')}
        </Button>
        <Box sx={{ mt: 2, display: 'flex', justifyContent: 'center', gap: 3, flexWrap: 'wrap' }}>
          <Link component="button" type="button" variant="body2" onClick={() => setForgotOpen(true)}>
            {say('auth.forgot')}
          </Link>
          {/* The help is public (product.md §2): reachable before signing in. */}
          <Link component={RouterLink} to={`/help/${intl.locale.startsWith('en') ? 'en' : 'fr'}`} variant="body2">
            {say('menu.help')}
          </Link>
        </Box>
        <ForgotPasswordDialog open={forgotOpen} onClose={() => setForgotOpen(false)} />
      </Paper>
    </Box>
  );
}
