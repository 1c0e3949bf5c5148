// Client profiles and their one-per-profile records (product.md §3, product.md §D3). Upload after
// the providers and jobs, in this order, profile images last (product.md §4).

import { defineEntity, f, MAX_INT, text, UUID_LENGTH, UUID_PATTERN } from '../define.ts';
import { FILE_TYPES, MAX_IMAGE_BASE64, MAX_IMAGE_BYTES, phone } from './common.ts';

const profileAccess = { read: 'profiles.read', write: 'profiles.write' } as const;

/** Basic service data of a client. `appr` names apprenticeship offers (tbl_apprship
 * appr_Id) the client is put forward for; `orgHelp` names kinds of organisational help
 * (items of the `orgHelp` lookup list, the old tbl_orghelp) by `tbl_Id`, as in the spec. */
export interface BspData {
  appr: { tbl_Id: string }[];
  orgHelp: { tbl_Id: number }[];
}

const bspSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['appr', 'orgHelp'],
  properties: {
    appr: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['tbl_Id'],
        properties: { tbl_Id: { type: 'string', maxLength: UUID_LENGTH, pattern: UUID_PATTERN } },
      },
    },
    orgHelp: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['tbl_Id'],
        properties: { tbl_Id: { type: 'integer', minimum: 1, maximum: MAX_INT } },
      },
    },
  },
} as const;

/** The profile a sub-record belongs to: its key and its parent at once. */
const profileKey = () => f.id({ required: true, ref: 'profile' });

export const profile = defineEntity({
  name: 'profile',
  title: ['prof_Reg_No', 'firstName', 'lastName'],
  shortTitle: ['firstName', 'lastName'],
  registrationNumber: 'prof_Reg_No',
  fileRecords: 'profileImage',
  table: 'tbl_profiles',
  key: 'prof_Id',
  rest: '/profile',
  offline: true,
  upload: { order: 7, errorTitle: 'Save Prof basic Error', updateOnDuplicate: true },
  // 1: `disability` became optional, a yes/no question left unanswered (docs/adr/0045-three-state-booleans.md
  // "Yes/no questions have three states"); stored documents keep their value as they are.
  // 2: `assignedTo` added, optional (docs/adr/0017-caseload.md "The caseload"); kept as they are.
  rxVersion: 2,
  access: profileAccess,
  owner: { field: 'location', reads: 'own' },
  list: {
    filters: ['territory', 'sex', 'populationGroup', 'educationLevel', 'location', 'assignedTo'],
    search: ['prof_Reg_No', 'firstName', 'lastName', 'phone'],
    defaultSort: { field: 'createdAt', dir: 'desc' },
    sorts: ['prof_Reg_No', 'firstName', 'lastName', 'sex', 'birthDate', 'phone', 'territory', 'createdAt'],
  },
  fields: {
    prof_Id: f.id({ required: true }),
    /** Organisation abbreviation + 8 of A-Z0-9 (product.md §5), made on the device (ids.ts). */
    prof_Reg_No: f.string({
      required: true,
      unique: true,
      immutable: true,
      personal: true,
      minLength: 9,
      maxLength: 20,
      pattern: '^[A-Z0-9]{9,20}$',
      example: 'ORG4K7Q2Z9X',
    }),
    firstName: f.string({ required: true, minLength: 1, maxLength: 100, personal: true }),
    middleName: text(100, { personal: true }),
    lastName: f.string({ required: true, minLength: 1, maxLength: 100, personal: true }),
    sex: f.enum({ required: true, values: ['F', 'M'], names: ['female', 'male'] }),
    /** Not in the future, nor over 120 years ago (docs/adr/0042-date-ranges.md "Dates that mean what they say"). */
    birthDate: f.date({ personal: true, range: { pastYears: 120, futureYears: 0 } }),
    phone: { ...phone(), personal: true },
    territory: f.lookup({ required: true, list: 'territory' }),
    address: text(500, { personal: true }),
    populationGroup: f.enum({ values: ['resident', 'displaced', 'returnee', 'refugee', 'host', 'other'] }),
    householdSize: f.integer({ minimum: 1, maximum: 50 }),
    educationLevel: f.lookup({ list: 'educationLevel' }),
    /** A yes/no question: unanswered (null), yes or no; stored `false` values of before are read
     * as "no" (docs/adr/0045-three-state-booleans.md "Yes/no questions have three states"). */
    disability: f.boolean(),
    disabilityDetail: text(500, { personal: true }),
    /** The client agreed to the keeping of their data; the form will not save without an answer. */
    consent: f.boolean({ required: true }),
    location: f.lookup({ list: 'organisation', allowNone: true, readOnly: true }),
    BspData: f.json<BspData>()({ schema: bspSchema, personal: true }),
    /** The worker who serves the client (docs/product.md §6.5.1): who registered them
     * unless reassigned (POST /profile/assign). Set by the server only: a new client takes its
     * creator (server/lib/records/caseload.ts), a device never sends it. */
    assignedTo: f.id({ readOnly: true }),
    /** When the client's data was erased (ADR-0036): the row stays, blanked, so that the
     * statistics still count the client's referrals and devices learn to drop it. */
    erasedAt: f.dateTime({ hidden: true }),
  },
});

export const skills = defineEntity({
  name: 'skills',
  table: 'tbl_skills',
  key: 'prof_Id',
  parent: 'prof_Id',
  rest: '/profile/skprofile',
  routes: { upsert: true },
  offline: true,
  upload: { order: 8, errorTitle: 'Save Prof skill Error' },
  access: profileAccess,
  owner: { via: 'parent' },
  fields: {
    prof_Id: profileKey(),
    educationLevel: f.lookup({ list: 'educationLevel' }),
    diploma: text(200),
    /** Items of the `skill` lookup list (the old tbl_prof_skills). */
    skills: f.json<number[]>()({
      itemsOf: 'skill',
      schema: { type: 'array', maxItems: 50, items: { type: 'integer', minimum: 1, maximum: MAX_INT } },
    }),
    otherSkills: text(1000),
    languages: text(200),
    experienceYears: f.integer({ minimum: 0, maximum: 80 }),
    workExperience: text(2000),
    tradeWanted: f.lookup({ list: 'trade' }),
    vocFieldWanted: f.lookup({ list: 'vocField' }),
  },
});

export const social = defineEntity({
  name: 'social',
  table: 'tbl_profiles_social',
  key: 'prof_Id',
  parent: 'prof_Id',
  rest: '/profile/social',
  routes: { upsert: true },
  offline: true,
  upload: { order: 9, errorTitle: 'Save Prof Social Error' },
  access: profileAccess,
  owner: { via: 'parent' },
  fields: {
    prof_Id: profileKey(),
    maritalStatus: f.enum({ values: ['single', 'married', 'divorced', 'widowed', 'separated'] }),
    householdHead: f.boolean(),
    dependants: f.integer({ minimum: 0, maximum: 50 }),
    housing: f.enum({ values: ['owner', 'tenant', 'hosted', 'shelter', 'none'] }),
    incomeSource: text(200),
    monthlyIncome: f.number({ minimum: 0, maximum: 1e12 }),
    vulnerabilities: text(1000),
    needs: text(1000),
  },
});

export const security = defineEntity({
  name: 'security',
  table: 'tbl_profiles_sec',
  key: 'prof_Id',
  parent: 'prof_Id',
  rest: '/profile/security',
  routes: { upsert: true },
  offline: true,
  upload: { order: 10, errorTitle: 'Save Prof Security Error' },
  access: profileAccess,
  owner: { via: 'parent' },
  fields: {
    prof_Id: profileKey(),
    feelsSafe: f.boolean(),
    hasIdDocument: f.boolean(),
    idDocumentType: text(100),
    protectionConcern: f.boolean(),
    incidentReported: f.boolean(),
    concerns: text(2000),
    referralNeeded: f.boolean(),
  },
});

export const business = defineEntity({
  name: 'business',
  table: 'tbl_profiles_bstart',
  key: 'prof_Id',
  parent: 'prof_Id',
  rest: '/profile/Bstart',
  routes: { upsert: true },
  offline: true,
  upload: { order: 11, errorTitle: 'Save Prof Business Error' },
  access: profileAccess,
  owner: { via: 'parent' },
  fields: {
    prof_Id: profileKey(),
    hasBusiness: f.boolean(),
    businessIdea: text(1000),
    sector: f.lookup({ list: 'sector' }),
    startCapital: f.number({ minimum: 0, maximum: 1e12 }),
    capitalNeeded: f.number({ minimum: 0, maximum: 1e12 }),
    supportNeeded: text(1000),
    trainingNeeded: f.boolean(),
  },
});

export const profileImage = defineEntity({
  name: 'profileImage',
  title: ['img_for', 'name'],
  table: 'tbl_profiles_images',
  key: ['prof_Id', 'img_for'],
  parent: 'prof_Id',
  rest: '/profile/images',
  offline: true,
  // A removed photo or document is gone from the server (its bytes deleted) and the row is
  // marked deleted, so that the pull tells every device to forget it (ADR-0028).
  softDelete: true,
  // 1: a removal made offline waits on the image's document (syncRemoveImages); added as optional.
  rxVersion: 1,
  // The spec names no title for profile images; its catalogue's profile sync title fits.
  upload: { order: 12, errorTitle: 'Profile Sync Error' },
  access: profileAccess,
  owner: { via: 'parent' },
  fields: {
    prof_Id: profileKey(),
    img_for: f.enum({ required: true, values: ['photo', 'idDocument', 'consentForm'] }),
    name: f.string({ required: true, minLength: 1, maxLength: 255 }),
    type: f.enum({ required: true, values: FILE_TYPES }),
    size: f.integer({ required: true, minimum: 1, maximum: MAX_IMAGE_BYTES }),
    /** Base64 bytes while the image waits in the browser; the server keeps bytes in its own
     * image table, so this is no column. */
    data: f.string({ required: true, clientOnly: true, maxLength: MAX_IMAGE_BASE64 }),
  },
});
