// Loads a referral with the client, and the service (with its provider) or job it points at.
import { useCallback, useEffect, useState } from 'react';
import { getRecord, getReferral, type Row } from './referralApi';
import { KIND_INFO, type ReferralKind } from './kinds';

export interface ReferralBundle {
  referral: Row;
  client: Row | null;
  /** The service (with `provider`) or the job. */
  target: Row | null;
}

export type ReferralState =
  { status: 'loading' } | { status: 'missing' } | { status: 'error'; error: unknown } | { status: 'ready'; bundle: ReferralBundle };

async function loadBundle(kind: ReferralKind, key: string): Promise<ReferralBundle | null> {
  const referral = await getReferral(kind, key);
  if (!referral) return null;
  const target = String(referral[KIND_INFO[kind].target]);
  const [client, found] = await Promise.all([
    getRecord(`/profile/${encodeURIComponent(String(referral.prof_Id))}`),
    getRecord(kind === 'service' ? `/spDetail/view/${encodeURIComponent(target)}` : `/jobs/${encodeURIComponent(target)}`),
  ]);
  return { referral, client, target: found };
}

export function useReferral(kind: ReferralKind, key: string, enabled: boolean) {
  const [state, setState] = useState<ReferralState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    loadBundle(kind, key).then(
      (bundle) => current && setState(bundle ? { status: 'ready', bundle } : { status: 'missing' }),
      (error: unknown) => current && setState({ status: 'error', error }),
    );
    return () => {
      current = false;
    };
  }, [kind, key, enabled, attempt]);
  /** Replaces the referral row (after a save, or with the server's copy after a conflict). */
  const setReferral = useCallback((referral: Row) => {
    setState((prev) => (prev.status === 'ready' ? { status: 'ready', bundle: { ...prev.bundle, referral } } : prev));
  }, []);
  return { state, setReferral, reload: () => setAttempt((n) => n + 1) };
}
