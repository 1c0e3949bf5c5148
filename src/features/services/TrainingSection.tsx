// A service's apprenticeships or vocational trainings on its page: a grid of them (server pages
// online, the device offline), with Add and a row click to edit for roles that may write.
import { useId } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { firstValueFrom } from 'rxjs';
import type { MangoQuery } from 'rxdb';
import { EntityGrid } from '../../components/entity';
import { type DataLayer, type Doc, type ListQuery, type ListResult, mangoOf, pageOf, selectorOf, useDataLayer } from '../../lib/data';
import { servicePaths, type TrainingKind } from './paths';
import { TRAININGS, type TrainingSettings } from './trainings';
import { useSay } from '../../lib/session';

type Row = Doc<TrainingSettings['entity']>;

/** The records of this device only: the children of a service never uploaded exist nowhere else
 * (online, the server would answer an empty page for a parent it does not know). */
async function listLocal(data: DataLayer, settings: TrainingSettings, query: ListQuery): Promise<ListResult<Row>> {
  const entity = settings.entity;
  const mango = mangoOf(entity, query) as MangoQuery<Row>;
  const [rows, total] = await Promise.all([
    firstValueFrom(data.observe(entity, mango)),
    firstValueFrom(data.count$(entity, selectorOf(entity, query) as MangoQuery<Row>['selector'])),
  ]);
  return { rows: rows as Row[], total, ...pageOf(query) };
}

export interface TrainingSectionProps {
  kind: TrainingKind;
  serviceId: string;
  /** The service exists on this device only (a pending create). */
  localOnly: boolean;
  /** Saves go to the server now (online mode with a network). */
  online: boolean;
  canWrite: boolean;
}

export function TrainingSection({ kind, serviceId, localOnly, online, canWrite }: TrainingSectionProps) {
  const data = useDataLayer();
  const navigate = useNavigate();
  const headingId = useId();
  const settings = TRAININGS[kind];
  const say = useSay();
  // A child sent now would reach the server before its parent: it waits for the upload.
  const blocked = localOnly && online;
  const load = (query: ListQuery) => {
    if (!data) return Promise.resolve({ rows: [], total: 0, ...pageOf(query) });
    return localOnly ? listLocal(data, settings, query) : data.list(settings.entity, query);
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby={headingId} data-testid={`section-${kind}`}>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography id={headingId} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {say(settings.ids.title)}
          </Typography>
          {canWrite && (
            <Button
              component={RouterLink}
              to={servicePaths.addTraining(serviceId, kind)}
              variant="outlined"
              startIcon={<AddIcon />}
              disabled={blocked}
            >
              {say(settings.ids.add)}
            </Button>
          )}
        </Box>
        {canWrite && blocked && <Alert severity="info">{say('services.training.uploadFirst')}</Alert>}
        <EntityGrid<Row>
          entity={settings.entity}
          load={load}
          columns={settings.columns}
          compactColumns={settings.compact}
          fixedFilter={{ sp_d_Id: serviceId }}
          pageSizes="short"
          onRowClick={
            canWrite
              ? (row) => void navigate(servicePaths.editTraining(serviceId, kind, String(row[settings.key as keyof Row])))
              : undefined
          }
          exportName={say(settings.ids.title)}
          ariaLabel={say(settings.ids.title)}
        />
      </CardContent>
    </Card>
  );
}
