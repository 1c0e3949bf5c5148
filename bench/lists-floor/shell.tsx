// Step `grid-shell`: the grid in a frame like the app's: a top bar with a few buttons and a
// permanent drawer of 10 links with icons and tooltips.
import Assessment from '@mui/icons-material/Assessment';
import Business from '@mui/icons-material/Business';
import Dashboard from '@mui/icons-material/Dashboard';
import Handshake from '@mui/icons-material/Handshake';
import Help from '@mui/icons-material/Help';
import Home from '@mui/icons-material/Home';
import Logout from '@mui/icons-material/Logout';
import Menu from '@mui/icons-material/Menu';
import People from '@mui/icons-material/People';
import Person from '@mui/icons-material/Person';
import Science from '@mui/icons-material/Science';
import Settings from '@mui/icons-material/Settings';
import Sync from '@mui/icons-material/Sync';
import Work from '@mui/icons-material/Work';
import { AppBar, Box, Button, Drawer, IconButton, List, ListItemButton, ListItemIcon, ListItemText, Toolbar, Tooltip, Typography } from '@mui/material';
import { createRoot } from 'react-dom/client';
import { Grid } from './grid';
import type { Row } from './rows';
import { Themed } from './theme';

const WIDTH = 264;
const LINKS = [
  ['Home', Home], ['Dashboard', Dashboard], ['Providers', Business], ['Services', Handshake], ['Jobs', Work],
  ['Clients', Person], ['Referrals', People], ['Reports', Assessment], ['Testing', Science], ['Settings', Settings],
] as const;

export function draw(rows: Promise<Row[]>) {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <Themed>
      <Box sx={{ display: 'flex' }}>
        <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
          <Toolbar>
            <IconButton color="inherit" edge="start" aria-label="Menu">
              <Menu />
            </IconButton>
            <Typography variant="h6" sx={{ flexGrow: 1 }}>
              ICRS
            </Typography>
            <Tooltip title="Sync">
              <IconButton color="inherit" aria-label="Sync">
                <Sync />
              </IconButton>
            </Tooltip>
            <Tooltip title="Help">
              <IconButton color="inherit" aria-label="Help">
                <Help />
              </IconButton>
            </Tooltip>
            <Button color="inherit" startIcon={<Logout />}>
              Sign out
            </Button>
          </Toolbar>
        </AppBar>
        <Drawer variant="permanent" sx={{ width: WIDTH, flexShrink: 0, '& .MuiDrawer-paper': { width: WIDTH } }}>
          <Toolbar aria-hidden />
          <List component="nav">
            {LINKS.map(([label, Icon]) => (
              <Tooltip key={label} title={label} placement="right">
                <ListItemButton component="a" href={`/${label.toLowerCase()}`}>
                  <ListItemIcon>
                    <Icon />
                  </ListItemIcon>
                  <ListItemText primary={label} />
                </ListItemButton>
              </Tooltip>
            ))}
          </List>
        </Drawer>
        <Box component="main" sx={{ flexGrow: 1, p: 3, minWidth: 0 }}>
          <Toolbar />
          <Typography variant="h4" component="h1" gutterBottom>
            Service providers
          </Typography>
          <Grid rows={rows} />
        </Box>
      </Box>
    </Themed>,
  );
}
