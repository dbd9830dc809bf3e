import type { Tx } from '../../db/client';
import { newId } from '../../lib/ids';
import { formatMoney } from '../../lib/money';
import { billsRepo } from './bills.repo';

/** The buyer's terms its spend is set from (rule 7). */
type SpendTerms = { id: string; payMethod: string; thresholdCents: number };

/**
 * What a prepay or credit buyer may still buy (rule 7, `buyer_spend`) and its prepay ledger belong to the
 * bills: every change of them but the sale's own (distribution/sale.repo.ts adds and takes back a price)
 * goes through here. The buyers module reaches it as its billing port (deps.ts), returns and the
 * billing run call it when an approved return, a credit or a debit, or a bill moves what the buyer has
 * spent. Each call belongs in the caller's transaction.
 */
export const buyerSpend = {
  /** Sets the buyer's spend afresh from its sales, bills and prepay ledger. */
  recompute: (tx: Tx, buyer: SpendTerms): Promise<void> => billsRepo.recomputeSpend(tx, buyer),

  /** {@link buyerSpend.recompute} for a buyer by id (nothing for a buyer that does not exist). */
  recomputeOf: (tx: Tx, buyerId: string): Promise<void> => billsRepo.recomputeSpendOf(tx, buyerId),

  /**
   * A buyer created or its form saved: the prepay amount is what the buyer has deposited (issue 13), so a
   * new amount records the difference in its prepay ledger (the balance is deposits less what its bills
   * drew); then its spend is set afresh under its terms.
   */
  async termsChanged(tx: Tx, buyer: SpendTerms & { prepayCents: number }, previousPrepayCents: number, at: Date) {
    if (buyer.prepayCents !== previousPrepayCents) {
      await billsRepo.addPrepayEntry(tx, {
        id: newId('ppe'),
        buyerId: buyer.id,
        kind: 'deposit',
        amountCents: buyer.prepayCents - previousPrepayCents,
        description: `Prepay set to ${formatMoney(buyer.prepayCents)} dollars`,
        createdAt: at,
      });
    }
    await billsRepo.recomputeSpend(tx, buyer);
  },
};

export type BuyerSpend = typeof buyerSpend;
