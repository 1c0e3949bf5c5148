// A client as people read it, one section per step of the form (identity, basic services,
// skills, social, security, business start, photo and documents), each with its way to change
// it: a link to the edit form on the client's page, a jump back to the step on the review.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Button, Card, CardContent, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import type { EntityShape } from '../../../schemas/define';
import type { BspData } from '../../../schemas/entities/profiles';
import { DetailList, type DetailItem } from '../../components/DetailList';
import { displayValue, fieldLabel, lookupLabel, type DisplayContext } from '../../components/entity';
import { FileSlots, NO_IMAGE_CHANGES, type ExistingImage, type FileSlot, type ImageChanges } from '../../components/images';
import { offerLabel, useApprenticeshipOffers } from './BasicServicesStep';
import { IDENTITY_FIELDS, profile, recordFields, SUB_PARTS, SUB_RECORDS, type StepId, type SubPart } from './steps';

type Values = Readonly<Record<string, unknown>>;

/** How a section offers its change: a route (the client's page) or a step (the review). */
export type EditAction = { href: (step: StepId) => string } | { go: (step: StepId) => void };

function EditButton({ step, action, ctx, section }: { step: StepId; action?: EditAction; ctx: DisplayContext; section: string }) {
  if (!action) return null;
  const label = ctx.t('clients.page.editSection', { section });
  if ('href' in action) {
    return (
      <Button component={RouterLink} to={action.href(step)} size="small" startIcon={<EditIcon />} aria-label={label}>
        {ctx.t('clients.page.edit')}
      </Button>
    );
  }
  return (
    <Button size="small" startIcon={<EditIcon />} onClick={() => action.go(step)} aria-label={label}>
      {ctx.t('clients.page.edit')}
    </Button>
  );
}

export function Section({ step, ctx, action, children }: { step: StepId; ctx: DisplayContext; action?: EditAction; children: ReactNode }) {
  const title = ctx.t(`clients.steps.${step}`);
  const id = `client-section-${step}`;
  return (
    <Card variant="outlined" component="section" aria-labelledby={id} data-testid={id}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography id={id} component="h2" variant="h6" sx={{ flexGrow: 1 }}>
            {title}
          </Typography>
          <EditButton step={step} action={action} ctx={ctx} section={title} />
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

function valueNode(entity: EntityShape, name: string, value: unknown, ctx: DisplayContext): ReactNode {
  const text = displayValue(entity, name, value, ctx);
  return (
    text || (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        —
      </Box>
    )
  );
}

export function fieldItems(entity: EntityShape, names: readonly string[], values: Values, ctx: DisplayContext): DetailItem[] {
  return names.map((name) => {
    const field = entity.fields[name];
    const wide = field?.kind === 'json' || (field?.kind === 'string' && field.maxLength > 300);
    return { name, label: fieldLabel(entity, name, ctx.t), value: valueNode(entity, name, values[name], ctx), wide };
  });
}

function BasicServices({ bsp, ctx }: { bsp: BspData; ctx: DisplayContext }) {
  const { offers } = useApprenticeshipOffers(ctx);
  const none = (
    <Box component="span" sx={{ color: 'text.secondary' }}>
      —
    </Box>
  );
  const items: DetailItem[] = [
    {
      name: 'appr',
      label: ctx.t('clients.services.appr'),
      wide: true,
      value: bsp.appr.length ? bsp.appr.map((a) => offerLabel(offers, a.tbl_Id, ctx)).join('; ') : none,
    },
    {
      name: 'orgHelp',
      label: ctx.t('clients.services.orgHelp'),
      wide: true,
      value: bsp.orgHelp.length ? bsp.orgHelp.map((h) => lookupLabel(ctx.lists, 'orgHelp', h.tbl_Id, ctx.lang)).join(', ') : none,
    },
  ];
  return <DetailList items={items} testId="client-bsp" />;
}

export function fileSlots(ctx: DisplayContext): FileSlot[] {
  return [
    { slot: 'photo', label: ctx.t('enum.profileImage.img_for.photo') },
    { slot: 'idDocument', label: ctx.t('enum.profileImage.img_for.idDocument'), documents: true },
    { slot: 'consentForm', label: ctx.t('enum.profileImage.img_for.consentForm'), documents: true },
  ];
}

export interface ClientSectionsProps {
  profileValues: Values;
  bsp: BspData;
  /** Each record's values, or null when the client has none (skipped). */
  records: Partial<Record<SubPart, Values | null>>;
  existingFiles: readonly ExistingImage[];
  /** Files picked and removed in the form (the review); none on the client's page. */
  fileChanges?: ImageChanges;
  ctx: DisplayContext;
  action?: EditAction;
  /** Shown instead of the identity's registration number while it is not made yet. */
  identityFields?: readonly string[];
  /** The sections drawn (default all, in the form's order). */
  only?: readonly StepId[];
  /** The client's page: unanswered fields are left out (the review shows every one). */
  answeredOnly?: boolean;
}

/** Yes/no questions stay on the page when unanswered, and read "—": "not asked" is not "no"
 * (docs/adr/0045-three-state-booleans.md "Yes/no questions have three states"). */
const QUESTIONS = new Set(
  [profile, ...Object.values(SUB_RECORDS)].flatMap((e: EntityShape) =>
    Object.entries(e.fields)
      .filter(([, field]) => field.kind === 'boolean' && field.default === undefined)
      .map(([name]) => name),
  ),
);

function answered(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);
}

/** The sections of a client that hold nothing yet: no record, no service, no file. */
export function emptySections(props: Pick<ClientSectionsProps, 'bsp' | 'records' | 'existingFiles'>): StepId[] {
  const empty: StepId[] = [];
  if (props.bsp.appr.length === 0 && props.bsp.orgHelp.length === 0) empty.push('services');
  for (const part of SUB_PARTS) if (!props.records[part]) empty.push(part);
  if (props.existingFiles.length === 0) empty.push('files');
  return empty;
}

export function ClientSections({
  profileValues,
  bsp,
  records,
  existingFiles,
  fileChanges = NO_IMAGE_CHANGES,
  ctx,
  action,
  identityFields = IDENTITY_FIELDS,
  only,
  answeredOnly = false,
}: ClientSectionsProps) {
  const shows = (step: StepId) => !only || only.includes(step);
  const names = (values: Values, all: readonly string[]) =>
    answeredOnly ? all.filter((name) => answered(values[name]) || QUESTIONS.has(name)) : all;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {shows('identity') && (
        <Section step="identity" ctx={ctx} action={action}>
          <DetailList items={fieldItems(profile, names(profileValues, identityFields), profileValues, ctx)} testId="client-identity" />
        </Section>
      )}
      {shows('services') && (
        <Section step="services" ctx={ctx} action={action}>
          <BasicServices bsp={bsp} ctx={ctx} />
        </Section>
      )}
      {SUB_PARTS.filter(shows).map((part) => {
        const values = records[part];
        const entity = SUB_RECORDS[part];
        return (
          <Section key={part} step={part} ctx={ctx} action={action}>
            {values ? (
              <DetailList items={fieldItems(entity, names(values, recordFields(entity)), values, ctx)} testId={`client-${part}`} />
            ) : (
              <Typography color="text.secondary">{ctx.t('clients.page.noRecord')}</Typography>
            )}
          </Section>
        );
      })}
      {shows('files') && (
        <Section step="files" ctx={ctx} action={action}>
          <FileSlots slots={fileSlots(ctx)} existing={existingFiles} value={fileChanges} onChange={() => undefined} readOnly />
        </Section>
      )}
    </Box>
  );
}
