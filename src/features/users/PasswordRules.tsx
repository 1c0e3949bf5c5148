// The password strength rule (schemas/passwords.ts) as a checklist that follows the typing.
import { Box, Typography } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { VisuallyHidden } from '../../components';
import { PASSWORD_MIN_LENGTH, PASSWORD_RULES, passwordProblems } from '../../../schemas/passwords';
import { useSay } from '../../lib/session';

export function PasswordRules({ password, userName, id }: { password: string; userName: string; id?: string }) {
  const say = useSay();
  const problems = passwordProblems(password, userName);
  return (
    <Box id={id}>
      <Typography variant="body2" color="text.secondary">
        {say('users.password.rulesTitle')}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="password-rules">
        {PASSWORD_RULES.map((rule) => {
          const met = password !== '' && !problems.includes(rule);
          const Icon = met ? CheckCircleIcon : RadioButtonUncheckedIcon;
          return (
            <Box component="li" key={rule} sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-rule={rule} data-met={met}>
              <Icon fontSize="small" color={met ? 'success' : 'disabled'} aria-hidden />
              <Typography variant="body2" color={met ? 'text.primary' : 'text.secondary'}>
                {say(`users.password.rule.${rule}`, { min: PASSWORD_MIN_LENGTH })}
                <VisuallyHidden> {say(met ? 'users.password.met' : 'users.password.notMet')}</VisuallyHidden>
              </Typography>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}
