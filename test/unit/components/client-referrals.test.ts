// @vitest-environment jsdom
// ClientReferrals (ADR-0029), the part the client page mounts: a client's service and job
// referrals with status and dates, each linking to its page; "refer" buttons for the roles that
// may refer; offline, the notice that referrals need a connection and no call to the server.
import { createElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListQuery } from '../../../src/lib/data/types';
import { render, wait, type Rendered } from './render';

const search = vi.hoisted(() => vi.fn());
vi.mock('../../../src/features/referrals/referralApi', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  searchReferrals: search,
}));

const { ClientReferrals } = await import('../../../src/features/referrals');
const { PreferencesProvider } = await import('../../../src/components');

const PROF = '01900000-0000-7000-8000-0000000000c1';
const ROWS = {
  service: [
    {
      ref_Id: '01900000-0000-7000-8000-0000000000r1',
      prof_Id: PROF,
      serviceName: 'Land rights advice',
      status: 'accepted',
      date: '2026-11-02',
      followUpDate: '2026-11-09',
      overdue: true,
    },
  ],
  job: [
    {
      jref_Id: '01900000-0000-7000-8000-0000000000j1',
      prof_Id: PROF,
      jobTitle: 'Mason',
      status: 'hired',
      date: '2026-10-20',
      followUpDate: null,
      overdue: false,
    },
  ],
};

function signIn(role: number) {
  localStorage.setItem('user', JSON.stringify({ userId: 'u1', userName: 'agent', role, location: 2 }));
  localStorage.setItem('token', 'x.eyJzdWIiOiJ1MSJ9.y');
}

async function show(): Promise<Rendered> {
  const element = createElement(
    MemoryRouter,
    null,
    createElement(PreferencesProvider, null, createElement(ClientReferrals, { profId: PROF })),
  );
  const rendered = await render(element);
  await wait(10);
  return rendered;
}

describe('ClientReferrals', () => {
  let shown: Rendered | undefined;
  beforeEach(() => {
    localStorage.clear();
    search.mockReset();
    search.mockImplementation(async (kind: 'service' | 'job', query: ListQuery) => ({
      rows: ROWS[kind],
      total: ROWS[kind].length,
      page: 1,
      pageSize: query.pageSize,
    }));
  });
  afterEach(async () => {
    await shown?.unmount();
    shown = undefined;
  });

  it("lists the client's service and job referrals with status, dates and links, and offers to refer", async () => {
    signIn(4);
    shown = await show();
    expect(search.mock.calls.map(([kind, query]) => [kind, (query as ListQuery).filter])).toEqual([
      ['service', { prof_Id: PROF }],
      ['job', { prof_Id: PROF }],
    ]);
    const text = shown.container.textContent ?? '';
    expect(text).toContain('Land rights advice');
    expect(text).toContain('Accepted');
    expect(text).toContain('Nov 2, 2026');
    expect(text).toContain('Follow-up overdue');
    expect(text).toContain('Mason');
    expect(text).toContain('Hired');
    const links = [...shown.container.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual(
      expect.arrayContaining([
        ['Refer to a service', `/referral/new?kind=service&client=${PROF}`],
        ['Refer to a job', `/referral/new?kind=job&client=${PROF}`],
        ['Land rights advice', `/referral/${ROWS.service[0]?.ref_Id}`],
        ['Mason', `/referral/job/${ROWS.job[0]?.jref_Id}`],
      ]),
    );
  });

  it('offline, says referrals need a connection and asks the server nothing', async () => {
    signIn(3);
    localStorage.setItem('mode', 'offline');
    shown = await show();
    expect(shown.container.querySelector('[data-testid="referrals-offline"]')?.textContent).toContain('Referrals need a connection');
    expect(shown.container.textContent).not.toContain('Refer to a service');
    expect(search).not.toHaveBeenCalled();
  });

  it('shows nothing to a role that may not see referrals', async () => {
    signIn(6);
    shown = await show();
    expect(shown.container.textContent).toBe('');
    expect(search).not.toHaveBeenCalled();
  });
});
