// Service providers and what they offer: services (sp_detail), apprenticeships and
// vocational trainings (product.md §3; product.md §D3). Upload order and titles: product.md §4, §8.

import { defineEntity, f, text } from '../define.ts';
import { durationMonths, email, longText, name, owner, phone, places } from './common.ts';

/** A service's verification status (product.md §4): new services are pending; a verifier sets
 * verified or rejected; an edited rejected service returns to pending. */
export const SERVICE_STATUS = { pending: 0, verified: 1, rejected: 2 } as const;
export type ServiceStatusValue = (typeof SERVICE_STATUS)[keyof typeof SERVICE_STATUS];

const providerAccess = { read: 'serviceProviders.read', write: 'serviceProviders.write' } as const;

export const serviceProvider = defineEntity({
  name: 'serviceProvider',
  title: ['sp_Name'],
  table: 'tbl_serviceprovider',
  key: 'sp_Id',
  rest: '/sproviers',
  routes: { search: '/srch' },
  offline: true,
  upload: { order: 3, errorTitle: 'SaveSP Error' },
  access: { ...providerAccess, create: 'serviceProviders.create' },
  owner: { field: 'location', reads: 'all' },
  softDelete: true,
  list: {
    filters: ['sp_type', 'territory', 'location'],
    search: ['sp_Name', 'sp_Address', 'contact', 'phone', 'email'],
    defaultSort: { field: 'sp_Name', dir: 'asc' },
    sorts: ['sp_Name', 'sp_type', 'territory', 'sp_Address', 'contact', 'phone', 'createdAt'],
  },
  fields: {
    sp_Id: f.id({ required: true }),
    sp_Name: name(),
    sp_type: f.enum({ required: true, values: [1, 2, 3, 4], names: ['social', 'economic', 'legal', 'education'] }),
    sp_Address: text(500),
    territory: f.lookup({ required: true, list: 'territory' }),
    phone: phone(),
    email: email(),
    /** Contact person. */
    contact: text(200),
    lat: f.lat(),
    lng: f.lng(),
    location: owner(),
  },
});

export const service = defineEntity({
  name: 'service',
  title: ['name'],
  table: 'tbl_sp_detail',
  key: 'sp_Detail_Id',
  parent: 'sp_Id',
  rest: '/spDetail',
  routes: { search: '/search/', byParent: '/getbySp' },
  offline: true,
  // 1: pending updates carry the image slots they empty (syncRemoveImages); added as optional.
  rxVersion: 1,
  upload: { order: 4, errorTitle: 'SPD Error' },
  access: providerAccess,
  owner: { via: 'parent' },
  softDelete: true,
  list: {
    filters: ['sp_Id', 'category', 'serviceType', 'territory', 'status'],
    search: ['name', 'description', 'eligibility'],
    defaultSort: { field: 'createdAt', dir: 'desc' },
    sorts: ['name', 'category', 'serviceType', 'territory', 'status', 'createdAt'],
  },
  fields: {
    sp_Detail_Id: f.id({ required: true }),
    sp_Id: f.id({ required: true, ref: 'serviceProvider' }),
    name: name(),
    category: f.lookup({ required: true, list: 'category' }),
    serviceType: f.lookup({ required: true, list: 'serviceType' }),
    territory: f.lookup({ required: true, list: 'territory' }),
    description: longText(),
    eligibility: text(2000),
    cost: text(200),
    hours: text(200),
    /** Verification (ADR-0026): new services are pending; POST /sverify/ sets 1 or 2. */
    status: f.enum({
      required: true,
      readOnly: true,
      values: Object.values(SERVICE_STATUS),
      names: Object.keys(SERVICE_STATUS),
      default: SERVICE_STATUS.pending,
    }),
    verifyComment: text(1000, { readOnly: true }),
    verifiedBy: f.id({ readOnly: true }),
    verifiedAt: f.dateTime({ readOnly: true }),
    sp_img1: f.image(),
    sp_img2: f.image(),
    sp_img3: f.image(),
  },
});

export const apprenticeship = defineEntity({
  name: 'apprenticeship',
  table: 'tbl_apprship',
  key: 'appr_Id',
  parent: 'sp_d_Id',
  rest: '/appr',
  routes: { byParent: '/spd' },
  offline: true,
  upload: { order: 5, errorTitle: 'SP_App Error' },
  access: providerAccess,
  owner: { via: 'parent' },
  list: { filters: ['sp_d_Id', 'trade'], search: ['conditions'], defaultSort: { field: 'createdAt', dir: 'desc' } },
  fields: {
    appr_Id: f.id({ required: true }),
    sp_d_Id: f.id({ required: true, ref: 'service' }),
    trade: f.lookup({ required: true, list: 'trade' }),
    durationMonths: durationMonths(),
    places: places(),
    startDate: f.date({ range: { pastYears: 50, futureYears: 5 } }),
    conditions: text(2000),
  },
});

export const vocational = defineEntity({
  name: 'vocational',
  table: 'tbl_voc_train',
  key: 'voc_Id',
  parent: 'sp_d_Id',
  rest: '/vocTrain',
  routes: { byParent: '/spd' },
  offline: true,
  upload: { order: 6, errorTitle: 'SpVOC Error' },
  access: providerAccess,
  owner: { via: 'parent' },
  list: { filters: ['sp_d_Id', 'vocField'], search: ['certificate'], defaultSort: { field: 'createdAt', dir: 'desc' } },
  fields: {
    voc_Id: f.id({ required: true }),
    sp_d_Id: f.id({ required: true, ref: 'service' }),
    vocField: f.lookup({ required: true, list: 'vocField' }),
    durationMonths: durationMonths(),
    /** Certificate awarded at the end. */
    certificate: text(200),
    places: places(),
    startDate: f.date({ range: { pastYears: 50, futureYears: 5 } }),
  },
});
