// Approving and rejecting a service: the server call, then what follows everywhere in the app:
// the sidebar badges refetch their counts, the device's copy of the service is refreshed, and
// the screen reloads its list (the service is no longer pending).
import { useState } from 'react';
import { isAxiosError } from 'axios';
import { service, SERVICE_STATUS } from '../../../schemas/index';
import { messageOf } from '../../components/entity';
import { api } from '../../lib/http';
import type { DataLayer } from '../../lib/data';
import { emitPendingStatsChanged } from '../../lib/util';
import { notify } from '../../lib/ui';
import { useSay } from '../../lib/session';
import { verifyService, type Decision } from './verifyApi';

export interface Target {
  id: string;
  name: string;
}

export function useVerify(data: DataLayer, onDone: () => void) {
  const say = useSay();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const mark = (id: string, on: boolean) =>
    setBusy((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  /** Resolves when decided; rejects (after saying why) when the server refused or was not reached. */
  const decide = async (target: Target, status: Decision, comment?: string): Promise<void> => {
    mark(target.id, true);
    try {
      await verifyService(api, { sp_Detail_Id: target.id, status, comment });
      const verified = status === SERVICE_STATUS.verified;
      notify.success(
        say(verified ? 'providers.verify.approvedTitle' : 'providers.verify.rejectedTitle'),
        say(verified ? 'providers.verify.approved' : 'providers.verify.rejected', { name: target.name }),
      );
      emitPendingStatsChanged();
      // The device's copy too, so the provider's page shows the new status offline.
      void data.get(service, target.id).catch(() => undefined);
      onDone();
    } catch (error) {
      notify.error(say('providers.verify.failedTitle'), say('providers.verify.failed', { name: target.name, message: messageOf(error) }));
      // The server answered (deleted or already decided meanwhile): show its current list.
      if (isAxiosError(error) && error.response) onDone();
      throw error;
    } finally {
      mark(target.id, false);
    }
  };

  return {
    busy,
    approve: (target: Target) => decide(target, SERVICE_STATUS.verified).catch(() => undefined),
    reject: (target: Target, comment: string) => decide(target, SERVICE_STATUS.rejected, comment),
  };
}
