import { describe, expect, it } from '@jest/globals';
import { databaseProblem } from './database-errors.js';

describe('databaseProblem', () => {
  it.each([
    [{ code: 'ECONNREFUSED' }, 503, 'database_unavailable'],
    [{ driverError: { code: '57P01' } }, 503, 'database_unavailable'],
    [{ message: 'Connection terminated unexpectedly' }, 503, 'database_unavailable'],
    [{ driverError: { code: '40001' } }, 503, 'concurrent_update'],
    [{ driverError: { code: '23505' } }, 409, 'conflict'],
    [{ driverError: { code: '23502' } }, 422, 'invalid_value'],
    [{ driverError: { code: '22P02', message: 'invalid input syntax for type json' } }, 422, 'invalid_value'],
  ])('maps %j to %i %s', (error, status, code) => {
    const problem = databaseProblem(error);
    expect(problem?.status).toBe(status);
    expect(problem?.code).toBe(code);
  });

  it('leaves other errors alone', () => {
    expect(databaseProblem(new TypeError('x'))).toBeUndefined();
    expect(databaseProblem({ driverError: { code: '42P01' } })).toBeUndefined();
    // A bad uuid or number reaching SQL is our bug (a 500, logged), not the client's value.
    expect(databaseProblem({ driverError: { code: '22P02', message: 'invalid input syntax for type uuid: "x"' } })).toBeUndefined();
    expect(databaseProblem(undefined)).toBeUndefined();
  });
});
