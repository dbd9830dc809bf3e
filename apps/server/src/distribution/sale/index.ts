import { rawDb } from '../../db/raw';
import type { SourceCaller } from '../engine';
import { groupCommit } from './group';
import { quote } from './quote';
import { sell } from './sell';
import type { QuoteOutcome, QuoteRequest, SaleDeps, SaleOutcome, SaleRequest } from './types';

export type {
  LeadAnswer,
  QuoteOutcome,
  QuoteRequest,
  RequestMeta,
  SaleContact,
  SaleDeps,
  SaleOutcome,
  SaleRequest,
} from './types';

/**
 * The engine's verb (DESIGN.md §5): quote a ping from memory (quote.ts), and sell a lead once
 * (sell.ts): the one-statement fast path, the careful path with cap locks and fall-through to the
 * next bidders, and the buyers' live deliveries run inline (sell-carefully.ts, careful.ts). `sale.repo.ts` is the only
 * writer of leads, matches and delivery attempts during a sale. Both answer typed outcomes; the
 * source API turns them into HTTP answers.
 */
export function createSale(deps: SaleDeps) {
  // Sales stored together while a group is being stored (issue 36 item 1): one WAL flush for many posts.
  const groups = groupCommit(rawDb(deps.db), { minGroup: deps.groupMin });
  return {
    /** A price for a ping: at once from memory, or once the Ping/Post buyers have answered. */
    quote: (caller: SourceCaller, input: QuoteRequest): QuoteOutcome | Promise<QuoteOutcome> =>
      quote(deps, caller, input),
    /** Sells a lead once (or replays the answer of the request it repeats). */
    sell: (req: SaleRequest): Promise<SaleOutcome> => sell(deps, req, groups.store),
  };
}

export type Sale = ReturnType<typeof createSale>;
