import { useState } from 'react';
import { ConfirmDialog, useSessionUser } from '../../components';
import { messageOf } from '../../lib/http';
import type { IcrsDatabase } from '../../lib/data';
import { notify, notifyIfQuota } from '../../lib/ui';
import { countPending, resetDatabase } from '../../lib/sync';
import { resyncReplication } from './replicationControl';
import { downloadPending } from './transfer';
import { UnsentDialog } from './UnsentDialog';
import { clearUploadReport } from './uploadRun';
import { useSay } from '../../lib/session';

type Step = 'idle' | 'confirm' | 'unsent';

/**
 * 'Reset Database' (product.md §5): the confirm 'please confirm to reset the database', then, when
 * records are still waiting, a second and plainer warning with their count and a way to
 * export them first. Nothing is deleted before both answers.
 */
export function useResetFlow(db: IcrsDatabase | null) {
  const user = useSessionUser();
  const say = useSay();
  const [step, setStep] = useState<Step>('idle');
  const [unsent, setUnsent] = useState(0);
  const [busy, setBusy] = useState(false);

  async function reset() {
    if (!db) return;
    setStep('idle');
    setBusy(true);
    try {
      await resetDatabase(db);
      resyncReplication();
      clearUploadReport();
      notify.success(say('offline.reset'), say('offline.resetDone'));
    } catch (error) {
      notify.error(say('offline.reset'), say('offline.resetFailed', { message: messageOf(error) }));
    } finally {
      setBusy(false);
    }
  }

  async function confirmed() {
    if (!db) return;
    const count = await countPending(db);
    if (count > 0) {
      setUnsent(count);
      setStep('unsent');
    } else {
      await reset();
    }
  }

  async function exportFirst() {
    if (!db || !user) return;
    try {
      const { file, count } = await downloadPending(db, user);
      notify.success(say('offline.pending.export'), say('offline.pending.exported', { count, file }));
    } catch (error) {
      if (!notifyIfQuota(error)) notify.error(say('offline.pending.exportFailedTitle'), messageOf(error));
    }
  }

  const dialogs = (
    <>
      <ConfirmDialog
        open={step === 'confirm'}
        title={say('offline.reset')}
        text={say('offline.resetConfirm')}
        confirmLabel={say('offline.reset')}
        onConfirm={() => void confirmed()}
        onCancel={() => setStep('idle')}
      />
      <UnsentDialog
        open={step === 'unsent'}
        title={say('offline.resetPendingTitle')}
        text={say('offline.resetPendingText', { count: unsent })}
        onCancel={() => setStep('idle')}
        actions={[
          { label: say('offline.exportFirst'), onClick: () => void exportFirst(), tone: 'primary', autoFocus: true },
          { label: say('offline.resetAnyway'), onClick: () => void reset(), tone: 'danger' },
        ]}
      />
    </>
  );

  return { open: () => setStep('confirm'), busy, dialogs };
}
