import { MenuItem, Select } from '@mui/material';
import { useIntl } from 'react-intl';
import { LANGS, isLang } from '../lib/session';
import { usePreferences } from './PreferencesProvider';

/** fr/en select (product.md §2 top bar); choosing stores the language and reloads. */
export function LanguageSelect() {
  const intl = useIntl();
  const { lang, setLang } = usePreferences();
  return (
    <Select
      variant="standard"
      disableUnderline
      value={lang}
      onChange={(event) => {
        if (isLang(event.target.value) && event.target.value !== lang) setLang(event.target.value);
      }}
      SelectDisplayProps={{ 'aria-label': intl.formatMessage({ id: 'shell.language' }) }}
      // Never narrower than its value: beside a long title it was cut to "Fra…".
      sx={{ color: 'inherit', '& .MuiSelect-icon': { color: 'inherit' }, minWidth: 64, flexShrink: 0 }}
    >
      {LANGS.map((code) => (
        <MenuItem key={code} value={code} lang={code}>
          {intl.formatMessage({ id: `lang.${code}` })}
        </MenuItem>
      ))}
    </Select>
  );
}
