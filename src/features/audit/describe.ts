// An audit entry in words, in the user's language: the action, the record's kind, the changed
// fields by their labels (the entity declarations of schemas/, as every screen names fields)
// and their values as the record's page shows them.
import { entities, getEntity } from '../../../schemas/index';
import type { EntityShape } from '../../../schemas/define';
import { displayValue, type DisplayContext, type Translate } from '../../components/entity';
import { fieldOf } from '../../components/entity/fields';
import { isRole } from '../../lib/session';
import { ERASE_REASONS } from '../../../schemas/erasure';
import { AUDIT_ACTIONS, type AuditEntry } from './types';

/** Translation key of an action: `audit.action.<camelCase>` ('signin.failed' → signinFailed),
 * so that 'signin' and 'signin.failed' do not clash in the nested catalogs. */
export function actionKey(action: string): string {
  return `audit.action.${action.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase())}`;
}

export function isKnownAction(action: string): boolean {
  return (AUDIT_ACTIONS as readonly string[]).includes(action);
}

/** The action in words; an action this app does not know yet as the server sent it. */
export function actionLabel(action: string, t: Translate): string {
  return isKnownAction(action) ? t(actionKey(action)) : action;
}

/** The kind of record in words ('Client', 'Skills'); '' for entries about no record. */
/** An entry's note as people read it: an erasure's reason code by its name ("Consent withdrawn:
 * letter received"), any other note as written. */
export function noteText(entry: Pick<AuditEntry, 'action' | 'note'>, t: Translate): string {
  const note = entry.note ?? '';
  if (entry.action !== 'erase') return note;
  const [, code, rest] = /^(\w+)(?:: ([\s\S]*))?$/.exec(note) ?? [];
  if (!code || !(ERASE_REASONS as readonly string[]).includes(code)) return note;
  const reason = t(`audit.eraseReason.${code}`);
  return rest ? `${reason}: ${rest}` : reason;
}

export function entityLabel(name: string | null, t: Translate): string {
  if (!name) return '';
  const entity = getEntity(name);
  return entity ? t(entity.label) : name;
}

/** The role's name ('Field officer'); '' when unknown. */
export function roleLabel(role: number | null, t: Translate): string {
  return isRole(role) ? t(`role.${role}`) : '';
}

/** A field's label from its entity's declaration; its name when the entity does not declare it
 * (a field added by a newer server). */
export function fieldName(entity: EntityShape | undefined, name: string, t: Translate): string {
  const field = entity && fieldOf(entity, name);
  return field?.label ? t(field.label) : name;
}

export function fieldNames(entry: Pick<AuditEntry, 'entity' | 'fields'>, t: Translate): string[] {
  const entity = entry.entity ? getEntity(entry.entity) : undefined;
  return entry.fields.map((name) => fieldName(entity, name, t));
}

/** Longest value shown in a history line; the rest is on the record itself. */
const MAX_VALUE = 120;

function clip(text: string): string {
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** A value before or after a change, as the record's page shows it; '—' when empty. */
export function valueText(entityName: string | null, field: string, value: unknown, ctx: DisplayContext): string {
  if (value === null || value === undefined || value === '') return '—';
  const entity = entityName ? getEntity(entityName) : undefined;
  let text: string;
  try {
    text =
      entity && fieldOf(entity, field)
        ? displayValue(entity, field, value, ctx)
        : typeof value === 'string'
          ? value
          : JSON.stringify(value);
  } catch {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return clip(text || '—');
}

/** Entities the audit screen filters on, by their labels (sorted in the user's language). */
export function entityOptions(t: Translate, lang: string): { value: string; label: string }[] {
  return (entities as readonly EntityShape[])
    .filter((e) => e.server)
    .map((e) => ({ value: e.name, label: t(e.label) }))
    .sort((a, b) => a.label.localeCompare(b.label, lang));
}

/** Change-stream tables of an entity and of the records kept under it (a client's sub-records,
 * photos and referrals), whose changes show in its history. */
export function historyTables(entityName: string): string[] {
  const tables = (entities as readonly EntityShape[])
    .filter((e) => e.server && (e.name === entityName || e.parent?.entity === entityName))
    .map((e) => e.table);
  return [...new Set([...tables, 'audit_log'])];
}
