// The one list-parameter function (schemas/listQuery.ts listParams): a screen's ListQuery as the
// API takes it, for the GET lists and the POST search calls alike.
import { describe, expect, it } from 'vitest';
import { listParams } from '../../schemas/index';

describe('listParams', () => {
  it('puts the filters at the top level beside the other parameters', () => {
    const others = { page: 2, pageSize: 25, sort: 'date', dir: 'asc', q: 'x', dateFrom: '2025-01-01' } as const;
    expect(listParams({ ...others, filter: { status: 'sent', territory: 3, open: false } })).toEqual({
      ...others,
      status: 'sent',
      territory: 3,
      open: false,
    });
  });

  it('leaves out empty values, and keeps zero and false', () => {
    expect(listParams({ page: 1, q: '', sort: undefined, filter: { location: 0, active: false, status: '' } })).toEqual({
      page: 1,
      location: 0,
      active: false,
    });
  });
});
