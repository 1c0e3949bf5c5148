// The registration form's steps (ADR-0028): the client's identity, the basic service data, the
// four one-per-client records, the photo and documents, then a review. Each record step shows
// every field its entity declares, so a field added in schemas/ appears here by itself.
import { writableFields, type EntityShape } from '../../../schemas/define';
import { business, profile, profileImage, security, skills, social } from '../../../schemas/index';

/** The client's own fields, in the order staff ask them (the registration number is made on
 * the device, the organisation by the server). */
export const IDENTITY_FIELDS = [
  'firstName',
  'middleName',
  'lastName',
  'sex',
  'birthDate',
  'phone',
  'territory',
  'address',
  'populationGroup',
  'householdSize',
  'educationLevel',
  'disability',
  'disabilityDetail',
  'consent',
] as const;

/** The records a client has one of, each optional, in the spec's upload order (§4). */
export const SUB_RECORDS = { skills, social, security, business } as const;
export type SubPart = keyof typeof SUB_RECORDS;
export const SUB_PARTS = Object.keys(SUB_RECORDS) as SubPart[];

/** Every field of a one-per-client record but its key (the client's). */
export function recordFields(entity: EntityShape): string[] {
  return writableFields(entity)
    .filter(([name, field]) => field.kind !== 'id' && !entity.keyFields.includes(name))
    .map(([name]) => name);
}

/** Fields a record shares with the client's identity: asked once, in the identity step, and
 * copied into the record when it is saved (docs/adr/0048-first-day-screens.md "Asked once"). */
export const ASKED_IN_IDENTITY: Readonly<Partial<Record<SubPart, readonly string[]>>> = { skills: ['educationLevel'] };

/** The fields a record's step asks: its own, without those the identity step asked. */
export function stepFields(part: SubPart): string[] {
  const shared = ASKED_IN_IDENTITY[part] ?? [];
  return recordFields(SUB_RECORDS[part]).filter((name) => !shared.includes(name));
}

/** A record's values with the fields it shares with the identity taken from there. */
export function withIdentityShared(
  part: SubPart,
  values: Record<string, unknown>,
  identity: Record<string, unknown>,
): Record<string, unknown> {
  const shared = ASKED_IN_IDENTITY[part] ?? [];
  return { ...values, ...Object.fromEntries(shared.map((name) => [name, identity[name] ?? null])) };
}

export type StepId = 'identity' | 'services' | SubPart | 'files' | 'review';
export const STEPS: readonly StepId[] = ['identity', 'services', ...SUB_PARTS, 'files', 'review'];

export function isSubPart(step: StepId): step is SubPart {
  return (SUB_PARTS as readonly string[]).includes(step);
}

/** The photo and the two documents (PDF allowed for the documents), by profile image kind. */
export const FILE_KINDS = profileImage.fields.img_for.values as readonly string[];
export const PHOTO_KIND = 'photo';

export { profile };
