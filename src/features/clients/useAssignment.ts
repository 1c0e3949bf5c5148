// "Assign to…"'s controller (docs/product.md §6.5.1): the chosen worker among the clients'
// organisation's, the preview of what the assignment adds to that worker's device, and the
// assignment, all or none, whose refusal is kept by its code.
import { useEffect, useState } from 'react';
import { messageOf } from '../../lib/http';
import { assignClients, caseloadError, previewAssignment, type CaseloadError, type Preview, type Worker } from './caseloadApi';

/** A client to assign: its key and its organisation (one assignment moves one organisation's). */
export interface AssignTarget {
  prof_Id: string;
  location: number | null;
}

export interface AssignResult {
  assigned: number;
  unchanged: number;
  worker: Worker;
}

export type PreviewState =
  { status: 'idle' } | { status: 'loading' } | { status: 'ready'; preview: Preview } | { status: 'failed'; message: string };

/** The organisation of every client, or null when they are of several. */
function organisationOf(clients: readonly AssignTarget[]): number | null {
  const organisations = new Set(clients.map((c) => c.location ?? 0));
  return organisations.size === 1 ? ([...organisations][0] ?? null) : null;
}

/** What the assignment adds to the chosen worker's device, asked again for each worker; the
 * answer is kept with what it answers, so a late one for another worker is never shown. */
function usePreview(to: string, idsKey: string): PreviewState {
  const asked = `${to}|${idsKey}`;
  const [answer, setAnswer] = useState<{ asked: string; state: PreviewState } | null>(null);
  useEffect(() => {
    if (!to) return undefined;
    let current = true;
    const key = `${to}|${idsKey}`;
    previewAssignment(to, idsKey.split(',')).then(
      (found) => current && setAnswer({ asked: key, state: { status: 'ready', preview: found } }),
      (error: unknown) => current && setAnswer({ asked: key, state: { status: 'failed', message: messageOf(error) } }),
    );
    return () => {
      current = false;
    };
  }, [to, idsKey]);
  if (!to) return { status: 'idle' };
  return answer?.asked === asked ? answer.state : { status: 'loading' };
}

export function useAssignment(clients: readonly AssignTarget[], workers: readonly Worker[], onAssigned: (result: AssignResult) => void) {
  const [to, setTo] = useState('');
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<CaseloadError | null>(null);
  const organisation = organisationOf(clients);
  const choices = workers.filter((w) => w.location === organisation);
  const worker = choices.find((w) => w.userId === to);
  const ids = clients.map((c) => c.prof_Id);
  const preview = usePreview(to, ids.join(','));

  const confirm = async () => {
    if (!worker) return;
    setSaving(true);
    setRefusal(null);
    try {
      const answer = await assignClients(ids, worker.userId);
      onAssigned({ ...answer, worker });
    } catch (error) {
      setRefusal(caseloadError(error));
    } finally {
      setSaving(false);
    }
  };

  // The preview first: what the worker's device takes is seen before confirming.
  const canConfirm = worker !== undefined && !saving && preview.status !== 'loading' && preview.status !== 'idle';
  return { to, setTo, organisation, choices, worker, preview, saving, refusal, confirm, canConfirm };
}
