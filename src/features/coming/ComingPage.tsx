import { Alert } from '@mui/material';
import ConstructionIcon from '@mui/icons-material/Construction';
import { useIntl } from 'react-intl';
import { Page } from '../../components';

/** Placeholder for screens that later issues fill: the screen's title and a clear notice. */
export function ComingPage({ titleId }: { titleId: string }) {
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: titleId })}>
      <Alert severity="info" icon={<ConstructionIcon />} data-testid="coming">
        {intl.formatMessage({ id: 'coming.text' })}
      </Alert>
    </Page>
  );
}
