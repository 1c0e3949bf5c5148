// Which database errors mean "unavailable, try again" (503) and which are a request's own fault.
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../server/db/index';

const pgError = (code: string, message = 'from the server') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['admin_shutdown (a restart terminated the session)', pgError('57P01')],
    ['crash_shutdown', pgError('57P02')],
    ['cannot_connect_now (starting up)', pgError('57P03')],
    ['statement_timeout', pgError('57014')],
    ['too_many_connections', pgError('53300')],
    ['a connection_exception (class 08)', pgError('08006')],
    ['a refused connection', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', pgError('ECONNRESET', 'read ECONNRESET')],
    ['a network time-out', pgError('ETIMEDOUT')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['no connection in time', new Error('timeout exceeded when trying to connect')],
    ['a frozen server', new Error('Query read timeout')],
    ['every address of a host refused', new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')])],
  ])('is true for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505')],
    ['bad input text', pgError('22P02')],
    ['a NUL in a string', pgError('22021')],
    ['a bug in our SQL', pgError('42703')],
    ['a plain error', new Error('boom')],
    ['not an error at all', 'Connection terminated'],
    ['nothing', undefined],
  ])('is false for %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
