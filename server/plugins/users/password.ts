// POST /users/changepass: the signed-in user changes their own password, proving the old one.
import type { FastifyInstance } from 'fastify';
import { user as userEntity } from '../../../schemas/index';
import type { Db } from '../../db/index';
import { requestLang, translate } from '../../lib/messages';
import { checkPassword, hashPassword } from '../../lib/passwords';
import { updateRow } from '../../lib/records';
import { fieldError } from '../../lib/errors';
import { schemas } from './schemas';
import { findUserById } from './store';

interface ChangePasswordBody {
  oldPassword: string;
  newPassword: string;
}

export function registerPasswordRoute(app: FastifyInstance, db: Db) {
  app.post<{ Body: ChangePasswordBody }>('/api/users/changepass', { schema: schemas.changePassword }, async (request) => {
    const { oldPassword, newPassword } = request.body;
    const me = await findUserById(db, request.user.userId);
    if (!me || !(await checkPassword(me.passwordHash, oldPassword))) {
      throw fieldError(request, 'oldPassword', 'users.wrongPassword');
    }
    if (newPassword === oldPassword) throw fieldError(request, 'newPassword', 'users.samePassword');
    await updateRow(db, userEntity, me.userId, { passwordHash: await hashPassword(newPassword) }, me.userId);
    return { message: translate(requestLang(request), 'users.passwordChanged') };
  });
}
