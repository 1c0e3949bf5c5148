// An account moved to another organisation (ADR-0020): the device's mirror of the former
// organisation's records goes, with the user's drafts, before the pull fills the store with the
// new organisation's; records collected here for the former organisation wait, sealed, and are
// not uploaded (the server would file them under the new one) until the account belongs to it
// again or the user discards them.
import { useEffect, useState } from 'react';
import { adoptLegacyStore, collectionOf, formerMirrorHeld, type IcrsDatabase, OFFLINE_ENTITIES } from '../../lib/data';
import { countPending, forgetPullCheckpoints } from '../../lib/sync';
import { notify } from '../../lib/ui';
import { getUser, t } from '../../lib/session';
import { clearSealedValues, keyringOrganisations, setKeyringOrganisations } from '../../lib/vault';

/** Removes the mirror when it is another organisation's; settles which organisation the pending
 * records wait for. */
export async function settleOrganisation(db: IcrsDatabase): Promise<void> {
  const user = getUser();
  const held = user && keyringOrganisations(user.userId);
  if (!user || !held) return;
  if (formerMirrorHeld()) {
    await Promise.all(
      OFFLINE_ENTITIES.map((entity) =>
        collectionOf(db, entity)
          .find({ selector: { syncState: 'synced' } })
          .remove(),
      ),
    );
    await forgetPullCheckpoints(db);
    clearSealedValues();
    setKeyringOrganisations(user.userId, { mirror: user.location });
    notify.warning(t('lock.movedTitle'), t('lock.moved'));
  }
  if (held.records !== user.location && (await countPending(db)) === 0) setKeyringOrganisations(user.userId, { records: user.location });
}

/** The number of records waiting for the organisation the account left; 0 when none wait. */
export async function heldBackCount(db: IcrsDatabase): Promise<number> {
  const user = getUser();
  const held = user && keyringOrganisations(user.userId);
  if (!user || !held || held.records === user.location) return 0;
  return countPending(db);
}

/** The records the previous version's shared store kept for this user, taken into theirs. */
async function adoptPrevious(db: IcrsDatabase): Promise<void> {
  const user = getUser();
  if (!user) return;
  const taken = await adoptLegacyStore(db, user.userId);
  if (taken > 0) notify.info(t('lock.adoptedTitle'), t('lock.adopted', { count: taken }));
}

const dropping = new WeakMap<IcrsDatabase, Promise<void>>();

/** Before any screen reads the store: a former organisation's mirror goes (DbProvider
 * `beforeReads`), once per store however many providers ask; the rest of the settling follows
 * beside the screens (useStoreSettled). */
export function dropFormerMirror(db: IcrsDatabase): Promise<void> {
  if (!formerMirrorHeld()) return Promise.resolve();
  let dropped = dropping.get(db);
  if (!dropped) {
    // A failed drop is asked again by the next opening (a try again), not answered from here.
    dropped = settleOrganisation(db).catch((error: unknown) => {
      dropping.delete(db);
      throw error;
    });
    dropping.set(db, dropped);
  }
  return dropped;
}

/** True once the store is settled (records of the previous version taken, the organisation
 * checked): the pull may start. */
export function useStoreSettled(db: IcrsDatabase | null): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!db) return;
    let current = true;
    adoptPrevious(db)
      .catch((error: unknown) => console.error('Records of the previous version could not be taken into this store:', error))
      .then(() => settleOrganisation(db))
      .catch((error: unknown) => console.error("The organisation of this device's data could not be settled:", error))
      .finally(() => current && setSettled(true));
    return () => {
      current = false;
    };
  }, [db]);
  return settled;
}
