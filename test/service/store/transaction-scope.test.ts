import { describe, expect, it } from 'vitest';
import { CHECK_TRANSACTIONS_VARIABLE, TransactionScope } from '../../../src/service/store/kysely-storage.js';

const ticket = () => ({ open: true, afterwards: [] });

describe('TransactionScope', () => {
  it("knows a transaction's work and its continuations when checking", async () => {
    const scope = new TransactionScope(true);
    const inside = await scope.run(ticket(), async () => {
      await Promise.resolve();
      return scope.isInside();
    });
    expect(inside).toBe(true);
    expect(scope.isInside()).toBe(false);
    await expect(scope.run(ticket(), async () => scope.refuseInside())).rejects.toThrow(
      /inside the work use only the stores passed to it/,
    );
  });

  it('checks nothing, and runs the work as it is, when not checking (a running service)', async () => {
    const scope = new TransactionScope(false);
    const inside = await scope.run(ticket(), async () => {
      scope.refuseInside();
      return scope.isInside();
    });
    expect(inside).toBe(false);
  });

  it(`checks when ${CHECK_TRANSACTIONS_VARIABLE} is 1, as every test run sets it`, () => {
    expect(process.env[CHECK_TRANSACTIONS_VARIABLE]).toBe('1');
    const scope = new TransactionScope();
    return expect(scope.run(ticket(), async () => scope.isInside())).resolves.toBe(true);
  });
});
