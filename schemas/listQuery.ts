// One page request of a list, the same for the screens (online and offline), the API calls that
// ask for it and the server that answers it. The JSON schema that checks it on the server is
// derived per entity (derive/json-schema.ts listQuerySchema; derive/typed.ts gives it this type).

/** A value an equality filter compares with. */
export type FilterValue = string | number | boolean;

/** One page request, the same online (API query) and offline (RxDB query). */
export interface ListQuery {
  /** From 1. */
  page?: number;
  /** One of the API's PAGE_SIZES (5, 10, 15, 20, 25, 50, 100, 200); default 10. */
  pageSize?: number;
  /** A field name; `createdAt` (or none: the entity's default) lists newest first. */
  sort?: string;
  dir?: 'asc' | 'desc';
  /** Text search in the entity's search fields. */
  q?: string;
  /** Equality filters by field name (`territory`, `status`, `sp_Id`, …; offline also `syncState`). */
  filter?: Readonly<Record<string, FilterValue>>;
  dateFrom?: string;
  dateTo?: string;
}

/** A list query as the API takes it (GET query string, or the body of a POST search call): the
 * filters at the top level, beside the other parameters. */
export type ListParams = Omit<ListQuery, 'filter'> & { readonly [filter: string]: FilterValue | undefined };

/** A list query as the server holds it once validated: the schema's defaults filled the page and
 * its size. */
export type ListRequest = ListParams & Required<Pick<ListQuery, 'page' | 'pageSize'>>;

/** List query → API parameters: the filters at the top level, empty values left out. */
export function listParams(query: ListQuery): ListParams {
  const { filter, ...rest } = query;
  return Object.fromEntries(Object.entries({ ...rest, ...filter }).filter(([, v]) => v !== undefined && v !== '')) as ListParams;
}
