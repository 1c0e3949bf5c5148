import { MenuItem, Select } from '@mui/material';
import { LANGS, isLang, useSay } from '../lib/session';
import { usePreferences } from './PreferencesProvider';

/** fr/en select (product.md §2 top bar); choosing stores the language and reloads. */
export function LanguageSelect() {
  const say = useSay();
  const { lang, setLang } = usePreferences();
  return (
    <Select
      variant="standard"
      disableUnderline
      value={lang}
      onChange={(event) => {
        if (isLang(event.target.value) && event.target.value !== lang) setLang(event.target.value);
      }}
      SelectDisplayProps={{ 'aria-label': say('shell.language') }}
      // Never narrower than its value: beside a long title it was cut to "Fra…".
      sx={{ color: 'inherit', '& .MuiSelect-icon': { color: 'inherit' }, minWidth: 64, flexShrink: 0 }}
    >
      {LANGS.map((code) => (
        <MenuItem key={code} value={code} lang={code}>
          {say(`lang.${code}`)}
        </MenuItem>
      ))}
    </Select>
  );
}
