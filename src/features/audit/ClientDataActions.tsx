// A client's data handed over or erased (ADR-0036), for the roles that hold
// 'clients.handover' (role 1, and role 7 for its own organisation): "Export all data (ZIP)"
// downloads everything held about the client; "Erase this client" asks why (a reason from the
// list and an optional note) and the user's password (as a deletion does) and removes the
// personal data for good (./EraseClientDialog.tsx). Online only.
import { useState } from 'react';
import { Box, Button, CircularProgress } from '@mui/material';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import FolderZipIcon from '@mui/icons-material/FolderZip';
import { messageOf } from '../../components/entity';
import { notify } from '../../lib/ui';
import { eraseClient, exportClient } from './auditApi';
import { EraseClientDialog } from './EraseClientDialog';
import { useSay } from '../../lib/session';

export interface ClientDataActionsProps {
  profId: string;
  /** The client's name, in the erase dialog's title. */
  name: string;
  regNo?: string;
  /** After the erasure (the client page leaves for the client list). */
  onErased: () => void;
  size?: 'small' | 'medium';
}

export function ClientDataActions({ profId, name, regNo, onErased, size = 'medium' }: ClientDataActionsProps) {
  const say = useSay();
  const [exporting, setExporting] = useState(false);
  const [erasing, setErasing] = useState(false);
  const shown = regNo ? `${name} (${regNo})` : name;

  const download = async () => {
    setExporting(true);
    try {
      await exportClient(profId, regNo);
    } catch (error) {
      notify.error(say('audit.clientData.exportFailed'), messageOf(error));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      <Button
        variant="outlined"
        size={size}
        startIcon={exporting ? <CircularProgress size={16} aria-hidden /> : <FolderZipIcon />}
        disabled={exporting}
        onClick={() => void download()}
        data-testid="client-export"
      >
        {say('audit.clientData.export')}
      </Button>
      <Button
        variant="outlined"
        color="error"
        size={size}
        startIcon={<DeleteForeverIcon />}
        onClick={() => setErasing(true)}
        data-testid="client-erase"
      >
        {say('audit.clientData.erase')}
      </Button>
      <EraseClientDialog
        open={erasing}
        name={shown}
        onCancel={() => setErasing(false)}
        onConfirm={async (reasonCode, note, password) => {
          // A wrong password or a note naming the client rejects: the dialog says so and stays open.
          await eraseClient(profId, reasonCode, note, password);
          setErasing(false);
          notify.success(say('audit.clientData.erasedTitle'), say('audit.clientData.erased', { name: shown }));
          onErased();
        }}
      />
    </Box>
  );
}
