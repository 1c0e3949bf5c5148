// The basic service data of a client (BspData, product.md §3): the apprenticeship offers the client is
// put forward for, chosen among the apprenticeships of verified services, and the kinds of
// organisational help (the `orgHelp` lookup list).
import { useEffect, useState } from 'react';
import { Alert, Autocomplete, Box, TextField } from '@mui/material';
import { apprenticeship, service, SERVICE_STATUS } from '../../../schemas/index';
import type { BspData } from '../../../schemas/entities/profiles';
import { lookupLabel, LookupMultiSelect, type DisplayContext, type Option } from '../../components/entity';
import { useDataLayer } from '../../lib/data';

/** Largest page of the list API: enough offers for one programme's area. */
const OFFERS_PAGE = 200;

export interface Offer extends Option<string> {
  /** The service it belongs to (for a link from the client's page). */
  service: string;
}

/** The apprenticeships of verified services, labelled "trade — service (places)". */
export function useApprenticeshipOffers(ctx: DisplayContext): { offers: Offer[]; loading: boolean; failed: boolean } {
  const data = useDataLayer();
  const [state, setState] = useState<{ offers: Offer[]; loading: boolean; failed: boolean }>({ offers: [], loading: true, failed: false });
  useEffect(() => {
    if (!data) return undefined;
    let current = true;
    Promise.all([
      data.list(service, { filter: { status: SERVICE_STATUS.verified }, pageSize: OFFERS_PAGE }),
      data.list(apprenticeship, { pageSize: OFFERS_PAGE }),
    ]).then(
      ([services, apprenticeships]) => {
        const names = new Map(services.rows.map((s) => [s.sp_Detail_Id, s.name]));
        const offers = apprenticeships.rows
          .filter((a) => names.has(a.sp_d_Id))
          .map((a) => ({
            value: a.appr_Id,
            service: a.sp_d_Id,
            label: `${lookupLabel(ctx.lists, 'trade', a.trade, ctx.lang)} — ${names.get(a.sp_d_Id) ?? ''}`,
          }))
          .sort((x, y) => x.label.localeCompare(y.label, ctx.lang));
        if (current) setState({ offers, loading: false, failed: false });
      },
      () => current && setState({ offers: [], loading: false, failed: true }),
    );
    return () => {
      current = false;
    };
  }, [data, ctx.lists, ctx.lang]);
  return state;
}

/** The label of an offer the client has, also when it is no longer offered here. */
export function offerLabel(offers: readonly Offer[], id: string, ctx: DisplayContext): string {
  return offers.find((o) => o.value === id)?.label ?? ctx.t('clients.services.unknownOffer');
}

interface Props {
  value: BspData;
  onChange: (value: BspData) => void;
  ctx: DisplayContext;
  disabled?: boolean;
}

export function BasicServicesStep({ value, onChange, ctx, disabled }: Props) {
  const { offers, loading, failed } = useApprenticeshipOffers(ctx);
  const chosenOffers = value.appr.map(
    (a) => offers.find((o) => o.value === a.tbl_Id) ?? { value: a.tbl_Id, service: '', label: offerLabel(offers, a.tbl_Id, ctx) },
  );
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {failed && <Alert severity="warning">{ctx.t('clients.services.offersUnavailable')}</Alert>}
      <Autocomplete<Offer, true>
        id="client-appr"
        multiple
        options={offers}
        value={chosenOffers}
        loading={loading}
        disabled={disabled}
        disableCloseOnSelect
        getOptionLabel={(o) => o.label}
        isOptionEqualToValue={(a, b) => a.value === b.value}
        onChange={(_e, chosen) => onChange({ ...value, appr: chosen.map((o) => ({ tbl_Id: o.value })) })}
        noOptionsText={ctx.t(loading ? 'common.loading' : 'clients.services.noOffers')}
        renderInput={(params) => (
          <TextField {...params} label={ctx.t('clients.services.appr')} helperText={ctx.t('clients.services.apprHelp')} />
        )}
      />
      <LookupMultiSelect
        id="client-orghelp"
        list="orgHelp"
        value={value.orgHelp.map((h) => h.tbl_Id)}
        onChange={(ids) => onChange({ ...value, orgHelp: ids.map((tbl_Id) => ({ tbl_Id })) })}
        label={ctx.t('clients.services.orgHelp')}
        ctx={ctx}
        disabled={disabled}
      />
    </Box>
  );
}
