import { Link as RouterLink } from 'react-router';
import { Box, Button, Card, Typography } from '@mui/material';
import type SvgIcon from '@mui/material/SvgIcon';
import ArrowCircleRightIcon from '@mui/icons-material/ArrowCircleRight';
import { useIntl } from 'react-intl';
import { useSay } from '../../lib/session';

interface StatTileProps {
  id: string;
  label: string;
  count: number | null;
  to: string | null;
  color: string;
  icon: typeof SvgIcon;
}

/** A dashboard count tile with its optional 'More info' link (product.md §2 Home). */
export function StatTile({ id, label, count, to, color, icon: Icon }: StatTileProps) {
  const intl = useIntl();
  const say = useSay();
  const moreInfo = say('home.moreInfo');
  return (
    <Card data-testid={`tile-${id}`} sx={{ bgcolor: color, color: '#fff', height: '100%', display: 'flex', flexDirection: 'column' }}>
      <Box sx={{ p: 2, display: 'flex', alignItems: 'center', flexGrow: 1 }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h4" component="p" sx={{ fontWeight: 700 }} data-testid={`tile-${id}-count`}>
            {count === null ? '–' : intl.formatNumber(count)}
          </Typography>
          <Typography component="h2" variant="subtitle1">
            {label}
          </Typography>
        </Box>
        <Icon aria-hidden sx={{ fontSize: 56, opacity: 0.35 }} />
      </Box>
      {to && (
        <Button
          component={RouterLink}
          to={to}
          endIcon={<ArrowCircleRightIcon />}
          aria-label={`${moreInfo}: ${label}`}
          sx={{ color: 'inherit', bgcolor: 'rgba(0,0,0,0.12)', borderRadius: 0, '&:hover': { bgcolor: 'rgba(0,0,0,0.22)' } }}
        >
          {moreInfo}
        </Button>
      )}
    </Card>
  );
}
