// Who did something (registered a client, rejected a service), by name rather than user id.
import type { HttpClient } from './types';

/** Names of the users the caller may list (GET /users/all: roles 1 and 7, product.md §D4), to
 * say who rejected a service; an empty map for other roles or on failure. */
export async function userNames(http: HttpClient): Promise<ReadonlyMap<string, string>> {
  try {
    const { data } = await http.get<{ userId: string; userName: string; fullName?: string | null }[]>('/users/all', { silent: true });
    return new Map(data.map((u) => [u.userId, u.fullName?.trim() || u.userName]));
  } catch (error) {
    console.warn('User names unavailable:', error);
    return new Map();
  }
}
