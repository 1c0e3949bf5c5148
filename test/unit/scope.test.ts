// The organisation scope's declarations (schemas/scope.ts): every server entity says whose it
// is, children reach their root's owner field, and the rule reads as docs/security.md says.
import { describe, expect, it } from 'vitest';
import { defineEntity, f } from '../../schemas/define';
import { entityByName, serverEntities } from '../../schemas/index';
import { mayAccess, mirrorScope, ownerPath, recordScope } from '../../schemas/scope';
import { THING } from './thing-entity';

const { apprenticeship, jobReferral, profile, serviceProvider, user } = entityByName;

describe('organisation scope declarations', () => {
  it('refuses a server entity that does not say whose its records are', () => {
    const declare = (owner?: null) =>
      defineEntity({
        ...THING,
        ...(owner === undefined ? {} : { owner }),
        fields: { id: f.id({ required: true }) },
      });
    expect(() => declare()).toThrow(/declare its owner/);
    expect(() => declare(null)).not.toThrow();
  });

  it('resolves every owned entity to a root owner field, children through their parents', () => {
    for (const e of serverEntities) {
      if (e.owner === null) continue;
      const path = ownerPath(e);
      expect(path?.root.field, e.name).toBe('location');
    }
    expect(ownerPath(apprenticeship)?.steps.map((s) => s.parentField)).toEqual(['sp_d_Id', 'sp_Id']);
    expect(ownerPath(apprenticeship)?.root.entity).toBe(serviceProvider);
    expect(ownerPath(jobReferral)?.root).toMatchObject({ entity: profile, reads: 'own' });
    expect(ownerPath(user)).toBeUndefined();
  });

  it('reads and writes as the rule says', () => {
    const member = { role: 3, location: 2 };
    const unattached = { role: 3, location: 0 };
    const admin = { role: 1, location: 2 };
    expect(recordScope(member, profile, 'read')).toEqual({ organisation: 2 });
    expect(recordScope(member, serviceProvider, 'read')).toBe('all');
    expect(recordScope(member, serviceProvider, 'write')).toEqual({ organisation: 2 });
    // Client data without an organisation: nothing, read or write (ADR-0007; it was 'all').
    expect(recordScope(unattached, profile, 'read')).toBe('none');
    expect(recordScope(unattached, profile, 'write')).toBe('none');
    expect(mirrorScope(unattached, profile)).toBe('none');
    expect(mayAccess(unattached, profile, 'read', null)).toBe(false);
    expect(mayAccess(unattached, profile, 'read', 2)).toBe(false);
    expect(recordScope(unattached, serviceProvider, 'read')).toBe('all');
    expect(recordScope({ role: 1, location: 0 }, profile, 'read')).toBe('all');
    expect(recordScope(admin, profile, 'write')).toBe('all');
    expect(mirrorScope(admin, profile)).toEqual({ organisation: 2 });
    expect(mayAccess(member, profile, 'read', 3)).toBe(false);
    expect(mayAccess(member, profile, 'read', 2)).toBe(true);
    expect(mayAccess(member, serviceProvider, 'read', 3)).toBe(true);
    expect(mayAccess(member, serviceProvider, 'write', 3)).toBe(false);
    expect(mayAccess(unattached, serviceProvider, 'write', null)).toBe(true);
    expect(mayAccess({ role: 6, location: 2 }, profile, 'read', 2)).toBe(false); // the role matrix first
  });
});
