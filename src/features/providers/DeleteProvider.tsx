// Deleting a provider (product.md §5: a reason and the user's password, checked by the server, which
// deletes its services too). A provider never uploaded is only on this device: discarding it
// needs no server, so it is a plain confirmation instead.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useIntl } from 'react-intl';
import { recordTitle, serviceProvider } from '../../../schemas/index';
import { ConfirmDialog } from '../../components';
import { DeleteDialog } from '../../components/DeleteDialog';
import type { DataLayer } from '../../lib/data';
import { notify } from '../../lib/ui';
import { discardLocalTree } from './discard';
import { useSay } from '../../lib/session';
import { PROVIDERS_PATH } from './paths';
import { useConnected } from '../../components/useConnected';
import type { ProviderDoc } from './useProvider';

export function DeleteProvider({ doc, data }: { doc: ProviderDoc; data: DataLayer }) {
  const say = useSay();
  const intl = useIntl();
  const navigate = useNavigate();
  const connected = useConnected();
  const [open, setOpen] = useState(false);
  const localOnly = doc.syncState === 'pending' && doc.syncOp === 'create';

  const done = (textId: string) => {
    notify.success(say('providers.delete.doneTitle'), say(textId, { name: recordTitle(serviceProvider, doc) }));
    void navigate(PROVIDERS_PATH, { replace: true });
  };

  const start = () => {
    // Only the server can check the password and delete: say so now, not after typing it.
    if (!localOnly && !connected) notify.warning(say('providers.delete.offlineTitle'), say('providers.delete.offline'));
    else setOpen(true);
  };

  const discard = async () => {
    setOpen(false);
    try {
      await discardLocalTree(data, serviceProvider, doc.sp_Id);
      done('providers.delete.discarded');
    } catch (error) {
      notify.error(say('providers.delete.failedTitle'), error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <>
      <Button color="error" variant="outlined" startIcon={<DeleteIcon />} onClick={start}>
        {say('providers.page.delete')}
      </Button>
      {localOnly ? (
        <ConfirmDialog
          open={open}
          title={say('providers.delete.discardTitle')}
          text={say('providers.delete.discardText', { name: recordTitle(serviceProvider, doc) })}
          confirmLabel={say('providers.delete.discardConfirm')}
          onCancel={() => setOpen(false)}
          onConfirm={() => void discard()}
        />
      ) : (
        <DeleteDialog
          open={open}
          entityLabel={say('entity.serviceProvider').toLocaleLowerCase(intl.locale)}
          name={recordTitle(serviceProvider, doc)}
          onCancel={() => setOpen(false)}
          onConfirm={async (reason, password) => {
            // A wrong password rejects: the dialog shows the server's message and stays open.
            await data.remove(serviceProvider, doc.sp_Id, { reason, password });
            setOpen(false);
            done('providers.delete.doneText');
          }}
        />
      )}
    </>
  );
}
