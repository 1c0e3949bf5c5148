// The verification calls only the server can answer (docs/api.md "Services and their
// verification"). They take the app's `api` (or a test client) and are silent: the screens show
// their own translated message rather than the interceptor's generic toast.
import type { RowOf } from '../../../schemas/derive/types';
import { SERVICE_STATUS, type service } from '../../../schemas/index';
import { listParams } from '../../../schemas/listQuery';
import type { HttpClient, ListQuery, ListResult } from '../../lib/data';

export type ServiceRow = RowOf<typeof service>;

export type Decision = typeof SERVICE_STATUS.verified | typeof SERVICE_STATUS.rejected;

export interface VerifyInput {
  sp_Detail_Id: string;
  status: Decision;
  /** Required to reject (the server answers 400 without it). */
  comment?: string;
}

export interface VerifyAnswer {
  sp_Detail_Id: string;
  status: Decision;
  verifyComment: string | null;
  verifiedBy: string;
  verifiedAt: string;
}

/** One page of the services waiting for verification (GET /spDetail/spending, list envelope). */
export async function listPending(http: HttpClient, query: ListQuery): Promise<ListResult<ServiceRow>> {
  const { data } = await http.get<ListResult<ServiceRow>>('/spDetail/spending', { params: listParams(query), silent: true });
  return data;
}

/** POST /sverify/: 1 verifies, 2 rejects with a comment. */
export async function verifyService(http: HttpClient, input: VerifyInput): Promise<VerifyAnswer> {
  const body = {
    sp_Detail_Id: input.sp_Detail_Id,
    status: input.status,
    ...(input.comment?.trim() ? { comment: input.comment.trim() } : {}),
  };
  const { data } = await http.post<VerifyAnswer>('/sverify/', body, { silent: true });
  return data;
}
