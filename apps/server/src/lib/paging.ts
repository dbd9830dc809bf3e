/**
 * The rows of one page of a list query (page 1-based, as the API speaks) as the repositories take
 * them: the sort, and how many rows to skip and to take.
 */
export function pageWindow<TSort, TOrder>(query: { page: number; pageSize: number; sort?: TSort; order?: TOrder }) {
  return { sort: query.sort, order: query.order, offset: (query.page - 1) * query.pageSize, limit: query.pageSize };
}
