// The registration form's steps (issue 11): the client's identity, the basic service data, the
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

export type StepId = 'identity' | 'services' | SubPart | 'files' | 'review';
export const STEPS: readonly StepId[] = ['identity', 'services', ...SUB_PARTS, 'files', 'review'];

export function isSubPart(step: StepId): step is SubPart {
  return (SUB_PARTS as readonly string[]).includes(step);
}

/** The photo and the two documents (PDF allowed for the documents), by profile image kind. */
export const FILE_KINDS = profileImage.fields.img_for.values as readonly string[];
export const PHOTO_KIND = 'photo';

export { profile };
