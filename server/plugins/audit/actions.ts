// What an audit entry calls a row change (ADR-0036): one rule per kind of record, as SQL over
// the trigger's variables (server/plugins/audit/triggers.ts): TG_OP, old_row and new_row (the
// row as jsonb) and changed (the names of the fields whose value changed, text[]). The generic
// rule (create, update, delete: a soft delete is a delete) holds unless an entity says more.
import { AUDIT_ACTIONS, type AuditAction } from '../../../schemas/auditActions';
import type { EntityShape } from '../../../schemas/define';

export { AUDIT_ACTIONS, type AuditAction };

interface ActionRule {
  /** The action of an insert. */
  insert?: AuditAction;
  /** CASE branches (`WHEN … THEN …`) of an update, tried before a soft delete. */
  update?: string;
  /** The action of any other update ('update' unless said). */
  otherwise?: AuditAction;
  /** The entry's note (a status's move, a file's name), as SQL. */
  note?: string;
}

const softDeleted = `(old_row->>'deleted') = 'false' AND (new_row->>'deleted') = 'true'`;
const statusMove = `WHEN 'status' = ANY(changed) THEN 'status'`;
const onlyChanged = (...fields: string[]) =>
  `changed <@ ARRAY[${fields.map((f) => `'${f}'`).join(', ')}]::text[] AND cardinality(changed) > 0`;

/** Rules of the records whose changes have names of their own. */
const RULES: Readonly<Record<string, ActionRule>> = {
  user: {
    insert: 'user.create',
    update: `WHEN ${onlyChanged('lastSignInAt')} THEN 'signin'
      WHEN 'active' = ANY(changed) AND (new_row->>'active') = 'false' THEN 'user.deactivate'
      WHEN 'active' = ANY(changed) THEN 'user.reactivate'
      WHEN 'passwordHash' = ANY(changed) AND (new_row->>'mustChangePassword') = 'true' THEN 'password.reset'
      WHEN 'passwordHash' = ANY(changed) THEN 'password.change'`,
    otherwise: 'user.update',
  },
  list: { insert: 'list.change', otherwise: 'list.change' },
  // A client given to another worker (POST /profile/assign): from whom to whom, as user ids.
  profile: {
    update: `WHEN ${onlyChanged('assignedTo')} THEN 'assign'`,
    note: `CASE WHEN TG_OP = 'UPDATE' AND ${onlyChanged('assignedTo')} THEN coalesce(old_row->>'assignedTo', '—') || ' → ' || coalesce(new_row->>'assignedTo', '—') END`,
  },
  service: {
    update: `WHEN 'verifiedAt' = ANY(changed) AND (new_row->>'status') = '1' THEN 'verify'
      WHEN 'verifiedAt' = ANY(changed) THEN 'reject'`,
    note: `CASE WHEN TG_OP = 'UPDATE' AND 'verifiedAt' = ANY(changed) THEN new_row->>'verifyComment' END`,
  },
  referral: {
    update: `${statusMove} WHEN ${onlyChanged('attachments')} THEN 'image.add'`,
    note: `CASE WHEN TG_OP = 'UPDATE' AND 'status' = ANY(changed) THEN (old_row->>'status') || ' → ' || (new_row->>'status') END`,
  },
  jobReferral: {
    update: statusMove,
    note: `CASE WHEN TG_OP = 'UPDATE' AND 'status' = ANY(changed) THEN (old_row->>'status') || ' → ' || (new_row->>'status') END`,
  },
  profileImage: {
    insert: 'image.add',
    update: `WHEN ${softDeleted} THEN 'image.remove'`,
    otherwise: 'image.add',
    note: `coalesce(new_row, old_row)->>'name'`,
  },
};

/** A change of a record's image slots only (a service's or job's photos): added, or removed when
 * every slot changed is now empty. */
function imageRule(entity: EntityShape): string {
  if (!entity.images.length) return '';
  const emptied = entity.images.map((slot) => `(NOT '${slot}' = ANY(changed) OR new_row->>'${slot}' IS NULL)`).join(' AND ');
  return `WHEN ${onlyChanged(...entity.images)} THEN CASE WHEN ${emptied} THEN 'image.remove' ELSE 'image.add' END`;
}

/** The action of a change of `entity`'s rows, as a SQL expression. */
export function actionSql(entity: EntityShape): string {
  const rule = RULES[entity.name] ?? {};
  const remove = `${entity.softDelete ? `WHEN ${softDeleted} THEN 'delete'` : ''} ${imageRule(entity)}`;
  return `CASE TG_OP WHEN 'INSERT' THEN '${rule.insert ?? 'create'}' WHEN 'DELETE' THEN 'delete'
    ELSE CASE WHEN false THEN NULL ${rule.update ?? ''} ${remove} ELSE '${rule.otherwise ?? 'update'}' END END`;
}

/** The entry's note, as a SQL expression: the rule's own, else a delete's reason. */
export function noteSql(entity: EntityShape): string {
  const reason = entity.softDelete ? `CASE WHEN TG_OP = 'UPDATE' AND ${softDeleted} THEN new_row->>'deleteReason' END` : 'NULL';
  return RULES[entity.name]?.note ? `coalesce(${RULES[entity.name]?.note}, ${reason})` : reason;
}
