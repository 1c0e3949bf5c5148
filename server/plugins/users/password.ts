// POST /users/changepass: the signed-in user changes their own password, proving the old one.
// Every other session of the user ends (token version, lib/tokens.ts); this one goes on with
// the fresh token of the answer.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { passwordProblems, type PasswordRule } from '../../../schemas/passwords';
import { user as userEntity } from '../../../schemas/index';
import type { Db } from '../../db/index';
import type { TokenService } from '../../lib/tokens';
import { sessionToken } from '../auth';
import { requestLang, translate } from '../../lib/messages';
import { updateRow } from '../../lib/records';
import { fieldError } from '../../lib/errors';
import type { KeyedCode } from '../../lib/errors';
import { schemas } from './schemas';
import { endSessions, findUserById, rotateDeviceSecret } from './store';
import { forgetFirstPassword } from '../../bootstrap';

const RULE_MESSAGES: Record<PasswordRule, KeyedCode> = {
  length: 'users.passwordTooShort',
  userName: 'users.passwordHasUserName',
  common: 'users.passwordCommon',
};

/** 400 on `field` when `password` breaks the strength rule (schemas/passwords.ts), the same
 * rule the screens show as the user types: a client that skips it is refused here. */
export function assertStrongPassword(request: FastifyRequest, field: string, password: string, userName: string): void {
  const [first] = passwordProblems(password, userName);
  if (first) throw fieldError(request, field, RULE_MESSAGES[first]);
}

interface ChangePasswordBody {
  oldPassword: string;
  newPassword: string;
}

/** `firstPasswordFile`: the first administrator's generated password (server/bootstrap.ts),
 * deleted once that administrator has chosen their own. */
export function registerPasswordRoute(app: FastifyInstance, db: Db, tokens: TokenService, firstPasswordFile?: string) {
  app.post<{ Body: ChangePasswordBody }>(
    '/api/users/changepass',
    { schema: schemas.changePassword, config: { beforePasswordChange: true } },
    async (request) => {
      const { oldPassword, newPassword } = request.body;
      const me = await findUserById(db, request.user.userId);
      // The one throttled check (sign-in's): a borrowed token cannot try passwords without limit.
      if (!me || !(await app.passwords.verify(request, me.userName, me.passwordHash, oldPassword, 'auth.tooManyPasswords'))) {
        throw fieldError(request, 'oldPassword', 'users.wrongPassword');
      }
      if (newPassword === oldPassword) throw fieldError(request, 'newPassword', 'users.samePassword');
      assertStrongPassword(request, 'newPassword', newPassword, me.userName);
      const passwordHash = await app.passwords.hash(newPassword);
      const tokenVersion = await db.transaction(async (tx) => {
        // The user's own choice replaces a temporary password.
        await updateRow(tx, userEntity, me.userId, { passwordHash, mustChangePassword: false }, me.userId);
        // A new device secret too (docs/security.md "Shared and lost devices").
        await rotateDeviceSecret(tx, me.userId);
        return endSessions(tx, me.userId);
      });
      if (forgetFirstPassword(firstPasswordFile, me.userName)) request.log.info({ file: firstPasswordFile }, 'first-password file deleted');
      // This session goes on, under its own id, with the new token version.
      const token = await sessionToken(tokens, { ...me, tokenVersion }, request.session.sid);
      return { message: translate(requestLang(request), 'users.passwordChanged'), token };
    },
  );
}
