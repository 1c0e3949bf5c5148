// A dashboard refresh that brings the same figures keeps the parts drawn apart (ADR-0035: the
// change stream's opening asks every figure again on each load; the charts are not drawn twice).
import { describe, expect, it } from 'vitest';
import { withUnchangedParts, type Dashboard } from '../../src/features/home/dashboardData';

function answer(services: number, at: number): Dashboard {
  return {
    general: { profiles: 3, referrals: 1, sProviders: 2, services, jobs: 4 },
    geo: { counts: [1, 2], points: [['a', 29.1, -1.6, 1]] },
    charts: { byCategory: [{ id: 1, count: services }], byTerritory: [{ id: 2, count: 5 }], byServiceType: null, jobsBySector: [] },
    lists: null,
    fetchedAt: new Date(at),
  } as Dashboard;
}

describe('dashboard refresh', () => {
  it('keeps each unchanged part of the previous answer, and takes the new time', () => {
    const first = answer(7, 1_000);
    const same = withUnchangedParts(first, answer(7, 2_000));
    expect(same.charts).toBe(first.charts);
    expect(same.geo).toBe(first.geo);
    expect(same.general).toBe(first.general);
    expect(same.fetchedAt.getTime()).toBe(2_000);
  });

  it('takes the new figures of a part that changed, and only of that part', () => {
    const first = answer(7, 1_000);
    const next = answer(8, 2_000);
    const merged = withUnchangedParts(first, next);
    expect(merged.charts).toBe(next.charts);
    expect(merged.general).toBe(next.general);
    expect(merged.general?.services).toBe(8);
    expect(merged.geo).toBe(first.geo);
    expect(withUnchangedParts(null, next)).toBe(next);
  });
});
