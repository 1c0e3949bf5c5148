// The people and the directory an API test file starts from: a server with the organisation
// list, the administrator and users of given roles and organisations each signed in once, and a
// service to refer clients to. One place for what most API test files set up the same way.
import { expect } from 'vitest';
import { sampleBody } from '../../../schemas/derive/sample';
import { entityByName } from '../../../schemas/index';
import { ensureOrganisations } from '../records';
import { startTestServer, type TestServer } from '../server';

/** Items of the seeded `organisation` list (their abbreviations make registration numbers). */
export const ORG_A = 2; // 'ADC'
export const ORG_B = 3; // 'CAJ'

/** Users by short name: [role, organisation], or [role, organisation, full name]. */
export type Staff = Record<string, readonly [role: number, location: number, fullName?: string]>;

/** Tokens by short name ('admin': the administrator) and user ids by short name. */
export interface SignedIn {
  token: Record<string, string>;
  id: Record<string, string>;
}

export interface StaffOptions {
  /** User names are `${prefix}-${name}`, passwords `password-${name}`. */
  prefix: string;
  /** The full name of a user whose entry gives none (the server's test default otherwise). */
  fullName?: (name: string) => string;
}

/** Signs the administrator in, then creates and signs in each of `staff` in its order; fills
 * and answers `into` (the test file's own records, read by its calls). */
export async function signInStaff(t: TestServer, staff: Staff, options: StaffOptions, into?: Partial<SignedIn>): Promise<SignedIn> {
  const signedIn: SignedIn = { token: into?.token ?? {}, id: into?.id ?? {} };
  signedIn.token.admin = await t.login(t.admin.userName, t.admin.password);
  for (const [name, [role, location, fullName = options.fullName?.(name)]] of Object.entries(staff)) {
    const userName = `${options.prefix}-${name}`;
    const password = `password-${name}`;
    ({ userId: signedIn.id[name] as string } = await t.createUser({
      userName,
      password,
      role,
      location,
      ...(fullName ? { fullName } : {}),
    }));
    signedIn.token[name] = await t.login(userName, password);
  }
  return signedIn;
}

/** A test server with the organisation list and `staff` signed in (signInStaff). */
export async function startWithStaff(
  serverOptions: Parameters<typeof startTestServer>[0],
  staff: Staff,
  options: StaffOptions,
  into?: Partial<SignedIn>,
): Promise<TestServer> {
  const t = await startTestServer(serverOptions);
  await ensureOrganisations(t.server.db);
  await signInStaff(t, staff, options, into);
  return t;
}

/** Checks an answer's status (its body in the failure's message) and passes the answer on. */
export const ok =
  (status: number) =>
  <R extends { status: number; body: unknown }>(r: R): R => {
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r;
  };

/** A service provider and one of its services (category 3, type 1), made by `token`'s user. */
export async function newService(t: TestServer, token: string | undefined): Promise<{ provider: string; service: string }> {
  const provider = sampleBody(entityByName.serviceProvider, {});
  ok(201)(await t.api('POST', '/sproviers/', { token, body: provider }));
  const service: Record<string, unknown> = {
    ...sampleBody(entityByName.service, { serviceProvider: String(provider.sp_Id) }),
    category: 3,
    serviceType: 1,
  };
  ok(201)(await t.api('POST', '/spDetail/', { token, body: service }));
  return { provider: String(provider.sp_Id), service: String(service.sp_Detail_Id) };
}
