// The add/edit form of a service: EntityForm for its fields (server-equal validation, a draft
// kept across a reload), the category and the service types of that category, and up to three
// images (camera or file, shrunk to 1600 px, previewed, removable).
import { useId, type ReactNode } from 'react';
import { Box } from '@mui/material';
import { service } from '../../../schemas/index';
import { EntityForm, useLookupLists } from '../../components/entity';
import { ImagePicker, type ExistingImage, type ImageChanges } from '../../components/images';
import { ClassificationFields, classificationProblems, SERVICE_FORM_FIELDS } from './ClassificationFields';
import { useSay } from '../../lib/session';

export interface ServiceFormProps {
  initialValues: Readonly<Record<string, unknown>>;
  recordKey?: string;
  existingImages?: readonly ExistingImage[];
  images: ImageChanges;
  onImages: (changes: ImageChanges) => void;
  onSubmit: (values: Record<string, unknown>) => Promise<void>;
  onCancel: () => void;
  onError: (error: unknown) => void;
  submitLabel?: string;
  /** Shown above the fields (the chosen provider). */
  header?: ReactNode;
}

export function ServiceForm(props: ServiceFormProps) {
  const say = useSay();
  const lists = useLookupLists();
  const idPrefix = useId();
  const { existingImages = [], images } = props;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {props.header}
      <EntityForm
        entity={service}
        fields={SERVICE_FORM_FIELDS}
        initialValues={props.initialValues}
        recordKey={props.recordKey}
        validate={(values) => classificationProblems(lists, values)}
        onSubmit={props.onSubmit}
        onCancel={props.onCancel}
        onError={props.onError}
        submitLabel={props.submitLabel}
      >
        {(form) => (
          <>
            <ClassificationFields form={form} idPrefix={idPrefix} />
            <ImagePicker
              slots={service.images}
              max={3}
              existing={existingImages}
              value={images}
              onChange={props.onImages}
              disabled={form.saving}
              label={say('services.form.images')}
            />
          </>
        )}
      </EntityForm>
    </Box>
  );
}

/** The values to save: the form's, plus a null for each image slot emptied (the data layer
 * sends those as `removeImages`). */
export function withRemovedImages(values: Record<string, unknown>, changes: ImageChanges): Record<string, unknown> {
  const out = { ...values };
  for (const slot of changes.removeImages) out[slot] = null;
  return out;
}
