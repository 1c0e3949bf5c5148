// "Remove my data from this device" (ADR-0020): the signed-in user's store, drafts and keys leave
// the device, then the user is signed out. Never while records wait to be uploaded: the dialog
// says how many, and nothing is removed.
import { useState } from 'react';
import { Button } from '@mui/material';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import { useSessionUser } from '../../components';
import { logout, removeMyData } from '../../lib/vault';
import { useDb } from '../../lib/data';
import { countPending } from '../../lib/sync';
import { stopReplication } from './replicationControl';
import { UnsentDialog } from './UnsentDialog';
import { useSay } from '../../lib/session';

type Step = { kind: 'idle' } | { kind: 'confirm' } | { kind: 'waiting'; count: number } | { kind: 'removing' };

export function RemoveMyData() {
  const say = useSay();
  const db = useDb();
  const user = useSessionUser();
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  async function ask() {
    if (!db) return;
    const count = await countPending(db);
    setStep(count > 0 ? { kind: 'waiting', count } : { kind: 'confirm' });
  }

  async function remove() {
    if (!db || !user) return;
    setStep({ kind: 'removing' });
    // Counted again at the last moment: an import or another tab may have added one.
    const count = await countPending(db);
    if (count > 0) return setStep({ kind: 'waiting', count });
    await stopReplication();
    await db.close();
    await removeMyData(user.userId);
    logout();
  }

  return (
    <>
      <Button
        variant="outlined"
        color="error"
        startIcon={<PhonelinkEraseIcon />}
        onClick={() => void ask()}
        disabled={!db || step.kind === 'removing'}
        data-testid="remove-my-data"
      >
        {say('lock.removeData')}
      </Button>
      <UnsentDialog
        open={step.kind === 'confirm' || step.kind === 'removing'}
        title={say('lock.removeDataTitle')}
        text={say('lock.removeDataText')}
        onCancel={() => setStep({ kind: 'idle' })}
        actions={[{ label: say('lock.removeDataConfirm'), tone: 'danger', onClick: () => void remove() }]}
      />
      <UnsentDialog
        open={step.kind === 'waiting'}
        title={say('lock.removeDataTitle')}
        text={say('lock.removeDataPending', { count: step.kind === 'waiting' ? step.count : 0 })}
        cancelLabel={say('common.close')}
        onCancel={() => setStep({ kind: 'idle' })}
        actions={[]}
      />
    </>
  );
}
