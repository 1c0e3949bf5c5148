// Apprenticeships (tbl_apprship) and vocational trainings (tbl_voc_train) of a service: the
// same screens for both, told apart by these settings.
import { apprenticeship, vocational } from '../../../schemas/index';
import type { TrainingKind } from './paths';

export const TRAININGS = {
  appr: {
    entity: apprenticeship,
    key: 'appr_Id',
    columns: ['trade', 'durationMonths', 'places', 'startDate'],
    compact: ['trade', 'startDate'],
    fields: ['trade', 'durationMonths', 'places', 'startDate', 'conditions'],
    ids: {
      title: 'services.appr.title',
      add: 'services.appr.add',
      addTitle: 'services.appr.addTitle',
      editTitle: 'services.appr.editTitle',
      notFound: 'services.appr.notFound',
    },
  },
  voc: {
    entity: vocational,
    key: 'voc_Id',
    columns: ['vocField', 'durationMonths', 'certificate', 'places', 'startDate'],
    compact: ['vocField', 'startDate'],
    fields: ['vocField', 'durationMonths', 'certificate', 'places', 'startDate'],
    ids: {
      title: 'services.voc.title',
      add: 'services.voc.add',
      addTitle: 'services.voc.addTitle',
      editTitle: 'services.voc.editTitle',
      notFound: 'services.voc.notFound',
    },
  },
} as const satisfies Record<TrainingKind, unknown>;

export type TrainingSettings = (typeof TRAININGS)[TrainingKind];
